/** Process trees of the commands and sites a test starts: what must be gone once they stop. */
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'

/** Every process below `pid` (children, grandchildren...). */
export function descendants(pid: number): number[] {
  const table = execFileSync('ps', ['-e', '-o', 'pid=,ppid='], { encoding: 'utf8' })
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => l.trim().split(/\s+/).map(Number) as [number, number])
  const below = (parent: number): number[] =>
    table.filter(([, ppid]) => ppid === parent).flatMap(([child]) => [child, ...below(child)])
  return below(pid)
}

/** Whether the process has exited: no such process, or a zombie its new parent has not reaped yet (an init that never reaps). */
export function processGone(pid: number): boolean {
  try {
    // /proc/<pid>/stat: "pid (comm) state ...": the state follows the last ')'.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'Z'
  } catch {
    return true
  }
}
