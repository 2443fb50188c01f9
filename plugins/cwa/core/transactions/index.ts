export { afterCommit, type AfterCommitCallback, beforeCommit, installAfterCommit } from './afterCommit.js'
