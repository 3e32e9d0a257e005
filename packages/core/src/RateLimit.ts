/**
 * Request limits of SPEC's Limits table as data, with fixed-window keys and pure decisions, so
 * the server can keep the counters in Postgres (shared by every server process) and only ask
 * this module which windows to count in and what to answer.
 *
 * Windows are fixed and aligned to the epoch (a 60 s window starts on each UTC minute), so a
 * window is one counter row: `key` is unique, `count` goes up by one per counted request, and
 * the row can be deleted after `resetsAt`.
 *
 * Counting atomically, and only requests that succeed (SPEC: payment-code requests the bank
 * rejects do not count). In one transaction, for every policy that applies:
 *
 *   INSERT INTO rate_counters (key, count, resets_at) VALUES ($key, 1, $resetsAt)
 *   ON CONFLICT (key) DO UPDATE SET count = rate_counters.count + 1
 *     WHERE rate_counters.count < $limit
 *   RETURNING count
 *
 * A policy whose statement returns no row is full: roll the transaction back (so no other
 * window counts this request) and answer `429` with {@link decideAll}'s longest wait, the
 * count of a full window being `limit + 1`. Otherwise commit (the slot is reserved), call the
 * bank, and if the bank rejects the request give the slots back with
 * `UPDATE rate_counters SET count = count - 1 WHERE key = ANY($keys) AND count > 0`.
 * Reserving before the bank call, rather than checking before and recording after, keeps
 * concurrent requests from all passing the check at once. Plain API and verification limits
 * count every request they admit: a process claims from the window ({@link leaseSize}, {@link
 * grant}), the count going up by what was granted and never past the limit, and answers a
 * request refused for a full window with {@link decide} at `limit + 1`.
 */

/** Service mode of a key or link. */
export type Mode = "live" | "test"

/** What a window counts per: a merchant, a client IP, a link, or a payer's identity and phone. */
export type Scope = "merchant" | "ip" | "link" | "id_phone"

/** One row of SPEC's Limits table: at most `limit` requests per `windowSeconds` per scope subject. */
export interface Policy {
  /** Stable name, used as the key prefix; never contains `:`. */
  readonly name: string
  readonly limit: number
  readonly windowSeconds: number
  readonly scope: Scope
  /** Applies only in live mode (SPEC's "in live mode also ..."). */
  readonly liveOnly: boolean
}

/** API requests: 120 per minute per merchant, both modes counted together. */
export const API: Policy = { name: "api", limit: 120, windowSeconds: 60, scope: "merchant", liveOnly: false }

/** Public receipt verification (`GET /verificar/{codigo}`): 20 per minute per IP. */
export const VERIFICACION: Policy = {
  name: "verificar",
  limit: 20,
  windowSeconds: 60,
  scope: "ip",
  liveOnly: false
}

/** Payment-code requests on the payment page: 5 per hour per link, in both modes. */
export const CODIGO_POR_LINK: Policy = {
  name: "codigo_link",
  limit: 5,
  windowSeconds: 3600,
  scope: "link",
  liveOnly: false
}

/** Live payment-code requests for the same payer id and phone: 3 per 10 minutes. */
export const CODIGO_POR_PAGADOR_10M: Policy = {
  name: "codigo_pagador_10m",
  limit: 3,
  windowSeconds: 600,
  scope: "id_phone",
  liveOnly: true
}

/** Live payment-code requests for the same payer id and phone: 1 per minute. */
export const CODIGO_POR_PAGADOR_1M: Policy = {
  name: "codigo_pagador_1m",
  limit: 1,
  windowSeconds: 60,
  scope: "id_phone",
  liveOnly: true
}

/** Live payment-code requests from one connection (IP): 10 per 10 minutes. */
export const CODIGO_POR_IP: Policy = {
  name: "codigo_ip",
  limit: 10,
  windowSeconds: 600,
  scope: "ip",
  liveOnly: true
}

/** The payment-code policies, in the order a payer is most likely to meet them. */
export const CODIGO_POLICIES: ReadonlyArray<Policy> = [
  CODIGO_POR_PAGADOR_1M,
  CODIGO_POR_PAGADOR_10M,
  CODIGO_POR_LINK,
  CODIGO_POR_IP
]

/** Every policy of SPEC's Limits table. */
export const ALL_POLICIES: ReadonlyArray<Policy> = [API, VERIFICACION, ...CODIGO_POLICIES]

/** The policies that apply to a payment-code request on the page in the given mode. */
export const paymentCodePolicies = (mode: Mode): ReadonlyArray<Policy> =>
  mode === "live" ? CODIGO_POLICIES : CODIGO_POLICIES.filter((p) => !p.liveOnly)

/**
 * Subject of the `id_phone` scope: the payer's identity document and phone, normalised so
 * `V-12.345.678` / `v12345678` and `0414-1234567` / `+58 414 1234567` count together. It is
 * payer data: the server should store an HMAC of it (with the server secret), not the text.
 */
export const idPhoneSubject = (idDocument: string, phone: string): string => {
  const id = idDocument.toUpperCase().replace(/[^0-9A-Z]/g, "")
  const digits = phone.replace(/\D/g, "")
  const national =
    digits.startsWith("58") && digits.length === 12 ? digits.slice(2) : digits.replace(/^0/, "")
  return `${id}|${national}`
}

/** A fixed window of a policy for one subject. */
export interface Window {
  /** Counter key: `<policy name>:<subject>:<window start ms>`. */
  readonly key: string
  /** Epoch ms at which the window opened (inclusive). */
  readonly windowStart: number
  /** Epoch ms at which the window closes and its count starts again from zero. */
  readonly resetsAt: number
}

/** The fixed window of `policy` containing `nowMs` for a subject (merchant code, IP, link id ...). */
export const windowKey = (policy: Policy, subject: string, nowMs: number): Window => {
  const size = policy.windowSeconds * 1000
  const windowStart = Math.floor(nowMs / size) * size
  return { key: `${policy.name}:${subject}:${windowStart}`, windowStart, resetsAt: windowStart + size }
}

/** Whether a request may go on and, if not, how many whole seconds the client should wait. */
export interface Decision {
  readonly allowed: boolean
  /** 0 when allowed; otherwise seconds until the window resets, rounded up, at least 1. */
  readonly retryAfterSeconds: number
}

/**
 * Decides a request from its window's count including this request (what the increment
 * returned): allowed while the count is at most the limit; refused requests wait for the reset.
 */
export const decide = (policy: Policy, countAfterIncrement: number, nowMs: number): Decision => {
  if (countAfterIncrement <= policy.limit) return { allowed: true, retryAfterSeconds: 0 }
  const { resetsAt } = windowKey(policy, "", nowMs)
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((resetsAt - nowMs) / 1000)) }
}

/**
 * The largest batch a process claims from a window's shared counter at once. Only a high limit
 * reaches it (1/64 of what is left must exceed it): at 7,500 link creations a second a batch of
 * 50 ran out 150 times a second, and each time every request under way waited for the claim.
 */
export const MAX_LEASE = 1000

/**
 * How many requests a process claims at once from a window's shared counter, given the count
 * it last saw there. Far from the limit it takes a batch (at most 1/64 of what is left and at
 * most {@link MAX_LEASE}), so most requests skip the database; within 128 of the limit it
 * claims one at a time. Requests already waiting for the window are claimed together on top
 * (the server asks for the larger of the two). What a process claimed and has not spent goes
 * back to the window when it stops being used, so a batch strands nothing for long.
 */
export const leaseSize = (policy: Policy, lastCount: number): number =>
  Math.max(1, Math.min(MAX_LEASE, Math.floor((policy.limit - lastCount) / 64)))

/**
 * Of `asked` requests claimed from a window that had granted `countBefore`, how many are
 * granted: what is left up to the limit, never more than asked. The window's count then goes
 * up by exactly that, so it never passes the limit and a refused claim counts nothing; the
 * server applies this in the claim's upsert, under the row's lock, so concurrent claims from
 * any number of processes grant the limit exactly.
 */
export const grant = (policy: Policy, asked: number, countBefore: number): number =>
  Math.max(0, Math.min(asked, policy.limit - countBefore))

/** A policy with its window count including this request. */
export interface Counter {
  readonly policy: Policy
  readonly countAfterIncrement: number
}

/** Decision over several windows at once. */
export interface CombinedDecision extends Decision {
  /** The policies that refused, so the server can log which limit was met. */
  readonly refusedBy: ReadonlyArray<Policy>
}

/** Combines several windows: allowed only if all allow; the wait is the longest of the refusals. */
export const decideAll = (counters: Iterable<Counter>, nowMs: number): CombinedDecision => {
  const refusedBy: Array<Policy> = []
  let retryAfterSeconds = 0
  for (const { policy, countAfterIncrement } of counters) {
    const decision = decide(policy, countAfterIncrement, nowMs)
    if (decision.allowed) continue
    refusedBy.push(policy)
    retryAfterSeconds = Math.max(retryAfterSeconds, decision.retryAfterSeconds)
  }
  return { allowed: refusedBy.length === 0, retryAfterSeconds, refusedBy }
}

/** Payer text telling how long to wait, e.g. "Espera 3 minutos antes de pedir otro código.". */
export const esperaMensaje = (retryAfterSeconds: number): string => {
  const seconds = Math.max(1, Math.ceil(retryAfterSeconds))
  const cuanto =
    seconds < 60
      ? seconds === 1
        ? "1 segundo"
        : `${seconds} segundos`
      : Math.ceil(seconds / 60) === 1
        ? "1 minuto"
        : `${Math.ceil(seconds / 60)} minutos`
  return `Has pedido demasiados códigos de pago. Espera ${cuanto} antes de pedir otro código.`
}
