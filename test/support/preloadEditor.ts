/**
 * Loads the rich-text editor before each test file's tests (jest's
 * setupFilesAfterEnv). payload.config.ts imports Lexical dynamically
 * (src/config/richTextEditor.ts) from its default export, which any import of
 * the config evaluates; under jest Lexical's `*.node.mjs` wrappers keep
 * importing for a while, and an import still running when a test ends is an
 * error ("import ... outside of the scope of the test code"). Loaded here, it
 * is in the file's module registry before the first test, and every later
 * import of it is immediate.
 */
await import('@payloadcms/richtext-lexical')
await import('@payloadcms/richtext-lexical/html')

export {}
