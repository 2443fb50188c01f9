/**
 * The type errors TypeScript finds in a module (strict, as the project compiles), for tests of what must or must
 * not type-check. A shared helper, so that `typescript` stays the worker's own package (outerRealm/manifest.ts).
 */
import { rmSync, writeFileSync } from 'node:fs'
import ts from 'typescript'

/** Writes `source` to `file` (beside what it imports), checks it, removes it, and returns its own errors. */
export function typeErrorsOf(file: string, source: string): string[] {
  writeFileSync(file, source)
  try {
    const program = ts.createProgram([file], {
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      jsx: ts.JsxEmit.ReactJSX,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      types: [],
    })
    return ts
      .getPreEmitDiagnostics(program)
      .filter((diagnostic) => diagnostic.file?.fileName === file)
      .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'))
  } finally {
    rmSync(file, { force: true })
  }
}
