export { afterCommit, type AfterCommitCallback, installAfterCommit } from './afterCommit.js'
