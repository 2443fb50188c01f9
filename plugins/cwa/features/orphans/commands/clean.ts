import type { CommandConfig } from '../../../core/commands/runCommand.js'
import { runScanOrphaned } from './scan.js'

/** `cwa:clean-orphaned`: the contract's alias of cwa:scan-orphaned. It deletes nothing (POST /_/orphaned_resources/delete does). */
export const script = (config: CommandConfig) => runScanOrphaned(config, 'cwa:clean-orphaned')
