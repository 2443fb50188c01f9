import type { Field } from 'payload'

/** Fields every component type shares (the contract's Component base). */
export function componentBaseFields(): Field[] {
  return [
    {
      name: 'uiComponent',
      type: 'text',
      admin: { description: 'Front-end component to render; empty falls back to @type.' },
    },
    { name: 'uiClassNames', type: 'text', hasMany: true },
    {
      name: 'componentGroups',
      type: 'relationship',
      relationTo: 'component_groups',
      hasMany: true,
      admin: { description: 'Groups owned by this component (nested regions).' },
    },
    {
      name: 'componentPositions',
      type: 'join',
      collection: 'component_positions',
      on: 'component',
      defaultLimit: 0,
      admin: { allowCreate: false },
    },
  ]
}
