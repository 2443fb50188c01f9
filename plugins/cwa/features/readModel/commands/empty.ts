import { noArguments, runCommand, type CommandConfig } from '../../../core/commands/runCommand.js'

export const COMMAND = 'cwa:read-model:empty'

/**
 * Empties the read model (every stored answer; each is computed again on
 * its next read), and says how many answers and bytes it held: after data
 * was changed in plain SQL, which the read model does not see.
 */
export async function script(config: CommandConfig): Promise<void> {
  await runCommand(config, noArguments(COMMAND), async (payload) => {
    const { emptyStore: emptyReadModel, storeSize: readModelSize } = await import('../store.js')
    const before = await readModelSize(payload)
    const dropped = await emptyReadModel(payload)
    console.log(
      `Emptied the read model: ${dropped} stored answer(s), ${(before.bodyBytes / 1024).toFixed(1)} KiB of bodies; each is computed again on its next read.`,
    )
    return 0
  })
}
