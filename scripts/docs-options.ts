/**
 * npm run docs:options: writes the options reference of docs/configuration.md
 * from the option declarations (plugins/cwa/optionsReference.ts). Run it
 * after changing an option's type, default or doc;
 * test/core/optionsReference.unit.test.ts fails until then.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { optionsReference, withReference } from '../plugins/cwa/optionsReference.js'

const page = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'configuration.md')
const before = readFileSync(page, 'utf8')
const after = withReference(before, optionsReference())
if (after === before) console.log('docs/configuration.md: the options reference is up to date')
else {
  writeFileSync(page, after)
  console.log('docs/configuration.md: the options reference rewritten')
}
