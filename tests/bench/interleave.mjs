// Servers compared under the same load, in turns. This machine's speed drifts by a fifth within
// minutes (a shared host), so two runs one after the other can differ by more than the servers
// do. Here every server runs at once, idle but for its turn, and each round gives each of them
// a short slice of the load, the order rotating from round to round: each server meets the
// same mix of fast and slow minutes, and their ratio is that of their sums.
import { cpuMeter } from "./cpu.mjs"

/** The middle value (the mean of the two middle ones for an even count). */
export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/**
 * Measures `contenders` ({ name, pid, options }: the server's main process and autocannon's
 * options for it) over `rounds` rounds of `seconds` each, after `warmup` seconds of the same
 * load per server, not counted. `load(options)` runs autocannon; `transactions()` gives the next
 * transaction id Postgres will hand out, so the write transactions of a slice are counted.
 *
 * Gives, by name: requests/s over all its slices, the median of its slices' p50 and p99, errors,
 * the CPU split (cpu.mjs) over its slices, the links each transaction carried, and each
 * slice's requests/s in round order.
 */
export const interleave = async ({ contenders, rounds, seconds, warmup, load, transactions }) => {
  const state = contenders.map((c) => ({
    ...c,
    meter: cpuMeter(c.pid),
    requests: 0,
    duration: 0,
    transactions: 0,
    non2xx: 0,
    errors: 0,
    p50: [],
    p99: [],
    slices: []
  }))
  if (warmup > 0) for (const s of state) await load({ ...s.options, duration: warmup })
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < state.length; i++) {
      const s = state[(i + round) % state.length]
      const first = await transactions()
      s.meter.start()
      const result = await load({ ...s.options, duration: seconds })
      s.meter.stop()
      s.transactions += (await transactions()) - first
      const total = result.requests.total
      s.requests += total
      s.duration += result.duration
      s.non2xx += result.non2xx
      s.errors += result.errors
      s.p50.push(result.latency.p50)
      s.p99.push(result.latency.p99)
      s.slices[round] = Math.round(total / result.duration)
    }
  }
  return Object.fromEntries(
    state.map((s) => {
      const { share, perRequest } = s.meter.result(s.requests)
      return [
        s.name,
        {
          rps: Math.round(s.requests / s.duration),
          p50: median(s.p50),
          p99: median(s.p99),
          non2xx: s.non2xx,
          errors: s.errors,
          cpu: share,
          cpu_us_per_link: perRequest,
          links_per_transaction: +(s.requests / Math.max(1, s.transactions)).toFixed(1),
          requests: s.requests,
          slices: s.slices
        }
      ]
    })
  )
}

/** `a`'s requests/s against `b`'s, over all their slices and round by round. */
export const compare = (a, b) => {
  const rounds = a.slices.map((rps, i) => rps / b.slices[i])
  return {
    ratio: +(a.rps / b.rps).toFixed(2),
    rounds: `median ${median(rounds).toFixed(2)}, ${Math.min(...rounds).toFixed(2)}–${Math.max(...rounds).toFixed(2)}`
  }
}
