/**
 * Setup file of every vitest config in the repository: no test sends traffic off the loopback
 * address. Every TCP or TLS connection (net.connect, tls.connect, http, undici's fetch: all go
 * through `net.Socket.prototype.connect`) and every `dns.lookup` is checked before anything
 * leaves the process, without asking DNS:
 * - loopback (127.0.0.0/8, ::1, ::ffff:127.x), `localhost` and `*.localhost`, and unix sockets
 *   pass;
 * - a name under `.invalid` (RFC 6761: never resolves) fails as a name that does not exist, so
 *   a test can point a webhook at one and watch its deliveries fail;
 * - a name given with the caller's own `lookup` (a test's resolver) passes when every address
 *   that lookup answers is loopback;
 * - anything else fails the connection (`EFUERADELOOPBACK`) and the test that made it: the
 *   `afterEach` below throws with the destinations it saw.
 * Processes a test spawns (the built server) are not covered: their webhooks point at a loopback
 * receiver or a name under `.invalid`.
 */
import dns from "node:dns"
import { syncBuiltinESMExports } from "node:module"
import net from "node:net"
import { afterAll, afterEach } from "vitest"

/** Whether `host` (a name or an address, IPv6 with or without brackets) is this machine. */
export const isLoopback = (host: string | undefined | null): boolean => {
  if (host === undefined || host === null || host === "") return true // Node's default: localhost
  const h = host
    .toLowerCase()
    .replace(/^\[(.*)\]$/, "$1")
    .replace(/\.$/, "")
  if (h === "localhost" || h.endsWith(".localhost")) return true
  if (net.isIPv4(h)) return h.split(".")[0] === "127"
  if (net.isIPv6(h)) {
    const mapped = /^(?:0{0,4}:){0,4}:?(?:0{0,4}:)?ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(h)?.[1]
    if (mapped !== undefined) return mapped.split(".")[0] === "127"
    const blocks = new net.BlockList()
    blocks.addAddress("::1", "ipv6")
    blocks.addSubnet("::ffff:7f00:0", 104, "ipv6")
    return blocks.check(h, "ipv6")
  }
  return false
}

/** A name under the reserved `.invalid` top-level domain. */
const isInvalidName = (host: string) => /\.invalid\.?$/i.test(host) || host.toLowerCase() === "invalid"

const seen: Array<string> = []

/** The off-loopback destinations tried since the last call (the guard's own test reads them). */
export const takeViolations = (): Array<string> => seen.splice(0)

const refusal = (host: string, port: unknown): NodeJS.ErrnoException => {
  if (isInvalidName(host)) {
    const error: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${host}`)
    error.code = "ENOTFOUND"
    error.syscall = "getaddrinfo"
    return error
  }
  seen.push(port === undefined ? host : `${host}:${port}`)
  const error: NodeJS.ErrnoException = new Error(
    `tests never connect off the loopback address: ${host}${port === undefined ? "" : `:${port}`} (use 127.0.0.1 or a name under .invalid)`
  )
  error.code = "EFUERADELOOPBACK"
  return error
}

/** The destination of `socket.connect(...args)`: a unix path, or a host and port. */
const destination = (args: ReadonlyArray<unknown>): { path: string } | { host: string; port: unknown } => {
  // net's internal calls pass [options, callback] with a normalized-args marker; users may pass
  // (options), (path), (port[, host]).
  const first = Array.isArray(args[0]) ? args[0][0] : args[0]
  if (typeof first === "string" && !/^\d+$/.test(first)) return { path: first }
  if (first !== null && typeof first === "object") {
    const options = first as { path?: unknown; host?: unknown; port?: unknown }
    if (typeof options.path === "string") return { path: options.path }
    return { host: typeof options.host === "string" ? options.host : "", port: options.port }
  }
  const host = Array.isArray(args[0]) ? undefined : args[1]
  return { host: typeof host === "string" ? host : "", port: first }
}

/**
 * A name with the caller's own `lookup` (the webhook sender's SSRF check, fed by a test's
 * resolver) is judged by the addresses that lookup gives, which are what the socket connects
 * to: `args` is changed to use a lookup that refuses any other answer. True when it applies.
 */
const withOwnLookup = (args: Array<unknown>, host: string): boolean => {
  const holder = (Array.isArray(args[0]) ? args[0] : args) as Array<unknown>
  const options = holder[0] as { lookup?: unknown } | null
  if (options === null || typeof options !== "object" || typeof options.lookup !== "function") return false
  if (net.isIP(host.replace(/^\[(.*)\]$/, "$1")) !== 0 || isLoopback(host) || isInvalidName(host))
    return false
  const own = options.lookup as (...a: Array<unknown>) => void
  const guarded = (hostname: string, lookupOptions: unknown, callback: (...a: Array<unknown>) => void) =>
    own(hostname, lookupOptions, (error: unknown, address: unknown, family: unknown) => {
      if (error) return callback(error, address, family)
      const answers = Array.isArray(address) ? address.map((a: { address: string }) => a.address) : [address]
      const outside = answers.find((a) => typeof a !== "string" || !isLoopback(a))
      if (outside === undefined) return callback(error, address, family)
      callback(refusal(`${hostname} (${String(outside)})`, undefined))
    })
  holder[0] = { ...options, lookup: guarded }
  return true
}

type Connect = (this: net.Socket, ...args: Array<unknown>) => net.Socket
const GUARDED = Symbol.for("switch.loopbackOnly")
const proto = net.Socket.prototype as unknown as Record<symbol, unknown> & { connect: Connect }

if (proto[GUARDED] === undefined) {
  proto[GUARDED] = true
  const connect = proto.connect
  proto.connect = function guardedConnect(this: net.Socket, ...args: Array<unknown>) {
    const target = destination(args)
    if ("host" in target && withOwnLookup(args, target.host)) return connect.apply(this, args)
    if ("host" in target && !isLoopback(target.host)) {
      const error = refusal(target.host, target.port)
      process.nextTick(() => this.destroy(error))
      return this
    }
    return connect.apply(this, args)
  }

  const lookup = dns.lookup
  const guardedLookup = (hostname: string, ...rest: Array<unknown>) => {
    if (isLoopback(hostname) || net.isIP(hostname) !== 0) return (lookup as Function)(hostname, ...rest)
    const callback = rest[rest.length - 1]
    const error = refusal(hostname, undefined)
    if (typeof callback === "function") process.nextTick(() => callback(error))
    return undefined
  }
  dns.lookup = guardedLookup as typeof dns.lookup
  const promisesLookup = dns.promises.lookup
  dns.promises.lookup = ((hostname: string, options?: unknown) =>
    isLoopback(hostname) || net.isIP(hostname) !== 0
      ? (promisesLookup as Function)(hostname, options)
      : Promise.reject(refusal(hostname, undefined))) as typeof dns.promises.lookup
  // `import { lookup } from "node:dns"` sees the guarded function too.
  syncBuiltinESMExports()
}

const check = () => {
  const tried = takeViolations()
  if (tried.length > 0)
    throw new Error(`this test tried to connect off the loopback address: ${[...new Set(tried)].join(", ")}`)
}
afterEach(check)
afterAll(check)
