import type { Field } from 'payload'

/** Fields every component type shares (the contract's Component base); the admin panel shows them under "Advanced". */
export function componentBaseFields(): Field[] {
  return [
    {
      name: 'uiComponent',
      type: 'text',
      label: 'Front-end component',
      admin: { description: 'The front end component that renders this block; empty: the one named after its type.' },
    },
    { name: 'uiClassNames', type: 'text', hasMany: true, label: 'CSS classes' },
    {
      name: 'componentGroups',
      type: 'relationship',
      relationTo: 'component_groups',
      hasMany: true,
      label: 'Nested groups',
      admin: { description: 'Groups of blocks inside this block.' },
    },
    {
      name: 'componentPositions',
      type: 'join',
      collection: 'component_positions',
      on: 'component',
      defaultLimit: 0,
      label: 'Placed in',
      admin: { allowCreate: false, description: 'Where this block appears.' },
    },
  ]
}
