export {
  type CredentialNames,
  installReadRouting,
  needsPrimary,
  onPrimary,
  onReplica,
  readsOnPrimary,
  replicatedDatabase,
} from './readRouting.js'
export { installReplicaWait, waitForReplicas } from './replicaWait.js'
