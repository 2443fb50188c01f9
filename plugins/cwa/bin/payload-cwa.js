#!/usr/bin/env node
// `npx payload-cwa <command>`: the package's command runner (commands/cli.ts, compiled to dist/). This file is
// plain JavaScript kept outside dist/ so that it exists when npm links the bin: in an npm workspace the link is
// made at install, before the package's build writes dist/ (npm skips a bin whose file is missing).
import '../dist/commands/cli.js'
