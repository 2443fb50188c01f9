/** Process trees of the commands and sites a test starts: what must be gone once they stop. */
import { execFileSync } from 'node:child_process'

/** Every process below `pid` (children, grandchildren...). */
export function descendants(pid: number): number[] {
  const table = execFileSync('ps', ['-e', '-o', 'pid=,ppid='], { encoding: 'utf8' })
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => l.trim().split(/\s+/).map(Number) as [number, number])
  const below = (parent: number): number[] => table.filter(([, ppid]) => ppid === parent).flatMap(([child]) => [child, ...below(child)])
  return below(pid)
}

/** Whether the process has exited. */
export function processGone(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return false
  } catch {
    return true
  }
}
