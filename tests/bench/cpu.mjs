// Where the CPU goes during a load: CPU seconds of the server's Node processes (and, of those, of
// their main threads, which run the JavaScript), of Postgres, of the load generator (this
// process), of everything else, and the machine's idle time, read from /proc (Linux). Given the
// requests served, also each group's CPU per request: a second worker can only add throughput
// if a request costs the machine no more with two than with one.
import { readdirSync, readFileSync } from "node:fs"
import { cpus } from "node:os"

const TICKS_PER_SECOND = 100

const stat = (pid) => {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8")
    const close = text.lastIndexOf(")")
    const comm = text.slice(text.indexOf("(") + 1, close)
    const fields = text.slice(close + 2).split(" ")
    // Own time plus that of reaped children, so a Postgres backend that exits mid-run still counts
    // (its time moves to the postmaster's).
    const ticks = [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0)
    return { pid, comm, ppid: Number(fields[1]), ticks }
  } catch {
    return null
  }
}

/** CPU ticks of a process's main thread alone (its JavaScript), without its other threads. */
const mainThreadTicks = (pid) => {
  try {
    const text = readFileSync(`/proc/${pid}/task/${pid}/stat`, "utf8")
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ")
    return Number(fields[11]) + Number(fields[12])
  } catch {
    return 0
  }
}

const processes = () =>
  readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .map((name) => stat(Number(name)))
    .filter((p) => p !== null)

/** The machine's idle and iowait ticks, all cores together. */
const idleTicks = () => {
  const fields = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/)
  return Number(fields[4]) + Number(fields[5])
}

/** Ticks per group at this moment; `serverPid` is the server's main process. */
const snapshot = (serverPid) => {
  const all = processes()
  const children = new Map()
  for (const p of all) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p.pid])
  const server = new Set([serverPid])
  for (const pid of server) for (const child of children.get(pid) ?? []) server.add(child)
  const groups = {
    server_node: 0,
    server_main_threads: 0,
    postgres: 0,
    load_generator: 0,
    other: 0,
    idle: idleTicks()
  }
  for (const p of all) {
    if (p.comm === "postgres") groups.postgres += p.ticks
    else if (p.pid === process.pid) groups.load_generator += p.ticks
    else if (server.has(p.pid)) {
      groups.server_node += p.ticks
      groups.server_main_threads += mainThreadTicks(p.pid)
    } else groups.other += p.ticks
  }
  return groups
}

/** Each group's share of `capacity` ticks, and its microseconds of CPU per request. */
const report = (ticks, capacity, requests) => {
  const share = {}
  const perRequest = {}
  for (const [key, value] of Object.entries(ticks)) {
    share[key] = `${Math.round((100 * value) / capacity)}%`
    perRequest[key] = Math.round((value * 1e6) / TICKS_PER_SECOND / Math.max(1, requests))
  }
  return { share, perRequest }
}

/**
 * A meter that adds up several spans (`start()` … `stop()`, as many as wanted, never nested)
 * of the same server; `result(requests)` gives each group's share of the machine's CPU time
 * over those spans, and its microseconds of CPU per request served (idle: of the machine's
 * idle time).
 */
export const cpuMeter = (serverPid) => {
  const ticks = {}
  let capacity = 0
  let before = null
  let started = 0
  return {
    start: () => {
      before = snapshot(serverPid)
      started = performance.now()
    },
    stop: () => {
      const after = snapshot(serverPid)
      capacity += ((performance.now() - started) / 1000) * cpus().length * TICKS_PER_SECOND
      for (const key of Object.keys(after)) ticks[key] = (ticks[key] ?? 0) + after[key] - before[key]
    },
    result: (requests) => report(ticks, capacity, requests)
  }
}
