import type { SanitizedConfig } from 'payload'
import { runScanOrphaned } from './scanOrphaned.js'

/** `cwa:clean-orphaned`: the contract's alias of cwa:scan-orphaned. It deletes nothing (POST /_/orphaned_resources/delete does). */
export const script = (config: SanitizedConfig) => runScanOrphaned(config, 'cwa:clean-orphaned')
