/**
 * This process's CPU seconds so far (Linux /proc): its own, and its children's once they ended (the sites, commands,
 * builds and browsers a test file starts). Null where there is no /proc. Read around a test file
 * (outerRealm/environment.mjs) and around the run's shared work (sharedTime.ts): npm test judges files by it.
 * @returns {{ self: number, children: number } | null}
 */
import { existsSync, readFileSync } from 'node:fs'

export function cpuNow() {
  if (!existsSync('/proc/self/stat')) return null
  const stat = readFileSync('/proc/self/stat', 'utf8')
  // Fields after the command name (which may hold spaces); utime, stime, cutime and cstime are the 12th to 15th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  const seconds = (i) => Number(fields[i]) / 100
  return { self: seconds(11) + seconds(12), children: seconds(13) + seconds(14) }
}
