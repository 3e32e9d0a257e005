/**
 * The client's address behind trusted proxies. By default no proxy is trusted and the address is
 * the socket's, so an `X-Forwarded-For` header cannot move a client into another rate-limit
 * window. With SWITCH_PROXIES_CONFIABLES (addresses or CIDR ranges, comma-separated) a request
 * from a trusted peer is attributed to the right-most address of `X-Forwarded-For` that is not
 * itself a trusted proxy: the left part of that header is whatever the client chose to send.
 */
import { BlockList, isIP } from "node:net"
import { type HttpApp, HttpServerRequest } from "@effect/platform"
import { Effect, Option } from "effect"

/** IPv4 addresses as IPv6 sockets report them (`::ffff:10.0.0.1`) read as IPv4. */
const plain = (address: string) => address.trim().replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, "")

const family = (address: string): "ipv4" | "ipv6" | null => {
  const v = isIP(address)
  return v === 4 ? "ipv4" : v === 6 ? "ipv6" : null
}

/** The trusted peers from the setting's entries; none when the list is empty. Bad entries throw. */
export const trustList = (entries: ReadonlyArray<string>): BlockList | null => {
  if (entries.length === 0) return null
  const list = new BlockList()
  for (const entry of entries) {
    const [address = "", bits] = entry.trim().split("/")
    const type = family(plain(address))
    if (type === null) throw new Error(`SWITCH_PROXIES_CONFIABLES: "${entry}" is not an address or range`)
    if (bits === undefined) list.addAddress(plain(address), type)
    else list.addSubnet(plain(address), Number(bits), type)
  }
  return list
}

const trusts = (list: BlockList, address: string) => {
  const type = family(address)
  return type !== null && list.check(address, type)
}

/** The client's address for a request from `peer` carrying `forwardedFor`. */
export const resolveClient = (peer: string, forwardedFor: string | undefined, trusted: BlockList): string => {
  const from = plain(peer)
  if (!trusts(trusted, from) || forwardedFor === undefined) return from
  const hops = forwardedFor
    .split(",")
    .map(plain)
    .filter((hop) => family(hop) !== null)
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i] as string
    if (!trusts(trusted, hop)) return hop
  }
  return hops[0] ?? from
}

/** Gives handlers the client's address instead of a trusted proxy's. */
export const behindProxies =
  (trusted: BlockList | null) =>
  <E, R>(app: HttpApp.Default<E, R>): HttpApp.Default<E, R | HttpServerRequest.HttpServerRequest> =>
    trusted === null
      ? app
      : Effect.updateService(app, HttpServerRequest.HttpServerRequest, (request) =>
          Option.match(request.remoteAddress, {
            onNone: () => request,
            onSome: (peer) =>
              request.modify({
                remoteAddress: resolveClient(peer, request.headers["x-forwarded-for"], trusted)
              })
          })
        )
