/**
 * The core's own operator commands: the jobs worker and the developer generators. Every other command is
 * declared by its feature (the `commands` of its declaration); commands/list.ts assembles both.
 */
import type { CwaCommand } from './command.js'

const make = () => import('./make.js')

export const commands: readonly CwaCommand[] = [
  {
    key: 'cwa:jobs:work',
    description: 'a jobs worker (every queue) for deployments whose web instances run with CWA_JOBS_RUNNER=0',
    load: () => import('./jobsWork.js'),
  },
  {
    key: 'cwa:make:api-component',
    description: "writes a component type's module and lists it in the generated index",
    arguments: '<Name> [--publishable] [--migration] [--dir <folder>]',
    load: make,
  },
  {
    key: 'cwa:make:page-data',
    description: "writes a page data type's module and lists it in the generated index",
    arguments: '<Name> [--component <slug>] [--migration] [--dir <folder>]',
    load: make,
  },
  {
    key: 'cwa:make:cwa-scaffold',
    description: 'writes a component <Name>Block and a page data type <Name>Data holding it',
    arguments: '<Name> [--migration] [--dir <folder>]',
    load: make,
  },
  {
    key: 'cwa:make:rename-component',
    description: 'writes a migration renaming a component or page data type',
    arguments:
      '--old-iri <iri> --new-iri <iri> [--new-short-name <Name>] [--namespace <name>] [--dir <folder>] [--timestamp <t>]',
    load: make,
  },
]
