export {
  type CredentialNames,
  installReadRouting,
  needsPrimary,
  onPrimary,
  readsOnPrimary,
  replicatedDatabase,
} from './readRouting.js'
export { installReplicaWait, waitForReplicas } from './replicaWait.js'
