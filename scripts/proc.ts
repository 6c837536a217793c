/** What the benchmark and suite scripts need of this machine: a free port, and a process's CPU time. */
import { readFileSync } from 'node:fs'
import { type AddressInfo, createServer } from 'node:net'

/** A port free right now on 127.0.0.1 (a node gets it on its command line, so it can be polled before it prints it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo
      probe.close(() => resolve(port))
    })
  })
}

/** Clock ticks per second of /proc/<pid>/stat's times (USER_HZ: 100 on Linux). */
const CLK_TCK = 100

/** The process's CPU time so far in user and kernel mode (utime, stime of /proc/<pid>/stat), µs; 10 ms resolution. */
export function cpuTimesOf(pid: number): { user: number; system: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return { user: (Number(fields[11]) * 1e6) / CLK_TCK, system: (Number(fields[12]) * 1e6) / CLK_TCK }
}

/** The process's CPU time so far (utime + stime), µs. */
export function cpuUsOf(pid: number): number {
  const { user, system } = cpuTimesOf(pid)
  return user + system
}
