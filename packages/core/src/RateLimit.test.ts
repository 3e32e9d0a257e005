import { describe, expect, it } from "@effect/vitest"
import { FastCheck as fc } from "effect"
import * as RateLimit from "./RateLimit.js"

const utc = (iso: string): number => Date.parse(iso)
const arbNow = fc.integer({ min: utc("2000-01-01T00:00:00Z"), max: utc("2100-01-01T00:00:00Z") })
const arbPolicy = fc.constantFrom(...RateLimit.ALL_POLICIES)

describe("RateLimit: SPEC's Limits table", () => {
  it("API requests: 120 per minute per merchant, in both modes", () => {
    expect(RateLimit.API).toMatchObject({ limit: 120, windowSeconds: 60, scope: "merchant", liveOnly: false })
  })

  it("receipt verification: 20 per minute per IP", () => {
    expect(RateLimit.VERIFICACION).toMatchObject({
      limit: 20,
      windowSeconds: 60,
      scope: "ip",
      liveOnly: false
    })
  })

  it("payment code on the page: 5 per hour per link in every mode", () => {
    expect(RateLimit.CODIGO_POR_LINK).toMatchObject({
      limit: 5,
      windowSeconds: 3600,
      scope: "link",
      liveOnly: false
    })
  })

  it("payment code in live mode: 3 per 10 min and 1 per min per id and phone, 10 per 10 min per IP", () => {
    expect(RateLimit.CODIGO_POR_PAGADOR_10M).toMatchObject({
      limit: 3,
      windowSeconds: 600,
      scope: "id_phone"
    })
    expect(RateLimit.CODIGO_POR_PAGADOR_1M).toMatchObject({ limit: 1, windowSeconds: 60, scope: "id_phone" })
    expect(RateLimit.CODIGO_POR_IP).toMatchObject({ limit: 10, windowSeconds: 600, scope: "ip" })
    for (const p of [
      RateLimit.CODIGO_POR_PAGADOR_10M,
      RateLimit.CODIGO_POR_PAGADOR_1M,
      RateLimit.CODIGO_POR_IP
    ]) {
      expect(p.liveOnly).toBe(true)
    }
  })

  it("a live payment-code request meets all four payment-code limits", () => {
    expect(RateLimit.paymentCodePolicies("live")).toHaveLength(4)
    expect(new Set(RateLimit.paymentCodePolicies("live"))).toEqual(
      new Set([
        RateLimit.CODIGO_POR_LINK,
        RateLimit.CODIGO_POR_PAGADOR_10M,
        RateLimit.CODIGO_POR_PAGADOR_1M,
        RateLimit.CODIGO_POR_IP
      ])
    )
  })

  it("a test payment-code request meets only the per-link limit", () => {
    expect(RateLimit.paymentCodePolicies("test")).toEqual([RateLimit.CODIGO_POR_LINK])
  })

  it("policy names are unique and free of ':' so keys never collide across policies", () => {
    const names = RateLimit.ALL_POLICIES.map((p) => p.name)
    expect(new Set(names).size).toBe(names.length)
    for (const name of names) expect(name).not.toContain(":")
  })
})

describe("RateLimit: payer subject", () => {
  it("the same id and phone typed differently count together", () => {
    const a = RateLimit.idPhoneSubject("V-12.345.678", "0414-1234567")
    expect(RateLimit.idPhoneSubject("v12345678", "04141234567")).toBe(a)
    expect(RateLimit.idPhoneSubject("V 12345678", "+58 414 123 4567")).toBe(a)
    expect(RateLimit.idPhoneSubject("V12345678", "4141234567")).toBe(a)
    expect(a).toBe("V12345678|4141234567")
  })

  it("a different id or phone is a different subject", () => {
    const a = RateLimit.idPhoneSubject("V12345678", "04141234567")
    expect(RateLimit.idPhoneSubject("E12345678", "04141234567")).not.toBe(a)
    expect(RateLimit.idPhoneSubject("V12345678", "04241234567")).not.toBe(a)
  })
})

describe("RateLimit: fixed windows", () => {
  it("a one-minute window starts on the UTC minute and resets on the next", () => {
    const now = utc("2026-11-20T23:15:42.250Z")
    expect(RateLimit.windowKey(RateLimit.API, "acme", now)).toEqual({
      key: `api:acme:${utc("2026-11-20T23:15:00Z")}`,
      windowStart: utc("2026-11-20T23:15:00Z"),
      resetsAt: utc("2026-11-20T23:16:00Z")
    })
  })

  it("a one-hour window starts on the UTC hour", () => {
    const w = RateLimit.windowKey(RateLimit.CODIGO_POR_LINK, "lnk_1", utc("2026-11-20T23:59:59.999Z"))
    expect(w.windowStart).toBe(utc("2026-11-20T23:00:00Z"))
    expect(w.resetsAt).toBe(utc("2026-11-21T00:00:00Z"))
  })

  it("the same subject in the next window gets a new key; other subjects never share one", () => {
    const now = utc("2026-11-20T23:15:00Z")
    const here = RateLimit.windowKey(RateLimit.API, "acme", now).key
    expect(RateLimit.windowKey(RateLimit.API, "acme", now + 60_000).key).not.toBe(here)
    expect(RateLimit.windowKey(RateLimit.API, "acme", now + 59_999).key).toBe(here)
    expect(RateLimit.windowKey(RateLimit.API, "otro", now).key).not.toBe(here)
    expect(RateLimit.windowKey(RateLimit.VERIFICACION, "acme", now).key).not.toBe(here)
  })

  it.prop(
    "now is always inside its window, whose length is the policy's",
    [arbPolicy, arbNow],
    ([policy, now]) => {
      const w = RateLimit.windowKey(policy, "s", now)
      expect(w.windowStart).toBeLessThanOrEqual(now)
      expect(now).toBeLessThan(w.resetsAt)
      expect(w.resetsAt - w.windowStart).toBe(policy.windowSeconds * 1000)
      expect(w.windowStart % (policy.windowSeconds * 1000)).toBe(0)
    }
  )

  it.prop(
    "two instants share a key exactly when they share a window",
    [arbPolicy, arbNow, arbNow],
    ([p, a, b]) => {
      const wa = RateLimit.windowKey(p, "s", a)
      const wb = RateLimit.windowKey(p, "s", b)
      expect(wa.key === wb.key).toBe(wa.windowStart === wb.windowStart)
      expect(wa.key === wb.key).toBe(b >= wa.windowStart && b < wa.resetsAt)
    }
  )
})

describe("RateLimit: decisions", () => {
  const now = utc("2026-11-20T23:15:42.250Z")

  it("the 120th API request in a minute passes and the 121st gets 429 until the minute ends", () => {
    expect(RateLimit.decide(RateLimit.API, 120, now)).toEqual({ allowed: true, retryAfterSeconds: 0 })
    expect(RateLimit.decide(RateLimit.API, 121, now)).toEqual({ allowed: false, retryAfterSeconds: 18 })
  })

  it("the 21st receipt verification in a minute from one IP is refused", () => {
    expect(RateLimit.decide(RateLimit.VERIFICACION, 20, now).allowed).toBe(true)
    expect(RateLimit.decide(RateLimit.VERIFICACION, 21, now).allowed).toBe(false)
  })

  it("a second live code for the same payer in one minute is refused", () => {
    expect(RateLimit.decide(RateLimit.CODIGO_POR_PAGADOR_1M, 1, now).allowed).toBe(true)
    expect(RateLimit.decide(RateLimit.CODIGO_POR_PAGADOR_1M, 2, now).allowed).toBe(false)
  })

  it("a 6th code for a link in one hour waits until the hour ends", () => {
    expect(RateLimit.decide(RateLimit.CODIGO_POR_LINK, 6, now)).toEqual({
      allowed: false,
      retryAfterSeconds: Math.ceil((utc("2026-11-21T00:00:00Z") - now) / 1000)
    })
  })

  it("a refusal in the last millisecond of a window still asks for at least one second", () => {
    expect(RateLimit.decide(RateLimit.API, 121, utc("2026-11-20T23:15:59.999Z")).retryAfterSeconds).toBe(1)
  })

  it.prop(
    "allowed exactly when the count including this request is within the limit",
    [arbPolicy, fc.integer({ min: 1, max: 500 }), arbNow],
    ([policy, count, at]) => {
      expect(RateLimit.decide(policy, count, at).allowed).toBe(count <= policy.limit)
    }
  )

  it.prop(
    "waiting retryAfterSeconds always reaches the next window",
    [arbPolicy, fc.integer({ min: 1, max: 500 }), arbNow],
    ([policy, count, at]) => {
      const d = RateLimit.decide(policy, count, at)
      if (d.allowed) {
        expect(d.retryAfterSeconds).toBe(0)
        return
      }
      const w = RateLimit.windowKey(policy, "s", at)
      expect(d.retryAfterSeconds).toBeGreaterThanOrEqual(1)
      expect(d.retryAfterSeconds).toBeLessThanOrEqual(policy.windowSeconds)
      expect(at + d.retryAfterSeconds * 1000).toBeGreaterThanOrEqual(w.resetsAt)
      expect(at + (d.retryAfterSeconds - 1) * 1000).toBeLessThan(w.resetsAt)
    }
  )
})

describe("RateLimit: several windows at once", () => {
  const now = utc("2026-11-20T23:15:42Z")

  it("allows only when every window allows", () => {
    const result = RateLimit.decideAll(
      [
        { policy: RateLimit.CODIGO_POR_LINK, countAfterIncrement: 2 },
        { policy: RateLimit.CODIGO_POR_PAGADOR_1M, countAfterIncrement: 1 }
      ],
      now
    )
    expect(result).toEqual({ allowed: true, retryAfterSeconds: 0, refusedBy: [] })
  })

  it("the payer is told the longest wait among the full windows", () => {
    const result = RateLimit.decideAll(
      [
        { policy: RateLimit.CODIGO_POR_PAGADOR_1M, countAfterIncrement: 2 },
        { policy: RateLimit.CODIGO_POR_LINK, countAfterIncrement: 6 },
        { policy: RateLimit.CODIGO_POR_IP, countAfterIncrement: 3 }
      ],
      now
    )
    expect(result.allowed).toBe(false)
    expect(result.refusedBy).toEqual([RateLimit.CODIGO_POR_PAGADOR_1M, RateLimit.CODIGO_POR_LINK])
    // 23:15:42 to 00:00:00 is 44 min 18 s.
    expect(result.retryAfterSeconds).toBe(44 * 60 + 18)
  })

  it("no windows means nothing to refuse", () => {
    expect(RateLimit.decideAll([], now)).toEqual({ allowed: true, retryAfterSeconds: 0, refusedBy: [] })
  })

  it.prop(
    "the combined wait is the maximum of the single waits and refusal is any single refusal",
    [
      fc.array(fc.record({ policy: arbPolicy, countAfterIncrement: fc.integer({ min: 1, max: 200 }) })),
      arbNow
    ],
    ([counters, at]) => {
      const singles = counters.map((c) => RateLimit.decide(c.policy, c.countAfterIncrement, at))
      const combined = RateLimit.decideAll(counters, at)
      expect(combined.allowed).toBe(singles.every((d) => d.allowed))
      expect(combined.retryAfterSeconds).toBe(Math.max(0, ...singles.map((d) => d.retryAfterSeconds)))
      expect(combined.refusedBy).toHaveLength(singles.filter((d) => !d.allowed).length)
    }
  )
})

describe("RateLimit: telling the payer how long to wait", () => {
  it("says seconds under a minute and whole minutes, rounded up, beyond", () => {
    expect(RateLimit.esperaMensaje(1)).toContain("Espera 1 segundo antes")
    expect(RateLimit.esperaMensaje(18)).toContain("Espera 18 segundos antes")
    expect(RateLimit.esperaMensaje(60)).toContain("Espera 1 minuto antes")
    expect(RateLimit.esperaMensaje(61)).toContain("Espera 2 minutos antes")
    expect(RateLimit.esperaMensaje(2658)).toContain("Espera 45 minutos antes")
  })
})

describe("RateLimit: claiming requests in batches", () => {
  const arbLimit = fc.integer({ min: 1, max: 100_000_000 })

  it.prop(
    "a batch is 1 within 128 of the limit and never above MAX_LEASE",
    [arbLimit, fc.nat(200_000_000)],
    ([limit, seen]) => {
      const policy = { ...RateLimit.API, limit }
      const size = RateLimit.leaseSize(policy, seen)
      expect(size).toBeGreaterThanOrEqual(1)
      expect(size).toBeLessThanOrEqual(RateLimit.MAX_LEASE)
      if (limit - seen < 128) expect(size).toBe(1)
    }
  )

  it.prop(
    "claims in any order, some given back unspent, never grant past the limit and come back short only on a full window",
    [arbLimit, fc.array(fc.tuple(fc.integer({ min: 1, max: 60 }), fc.nat(60)), { maxLength: 300 })],
    ([limit, claims]) => {
      const policy = { ...RateLimit.API, limit }
      let count = 0
      for (const [claimed, unspent] of claims) {
        const granted = RateLimit.grant(policy, claimed, count)
        expect(granted).toBeGreaterThanOrEqual(0)
        expect(granted).toBeLessThanOrEqual(claimed)
        count += granted
        expect(count).toBeLessThanOrEqual(limit)
        // Short only when nothing is left: a burst is never admitted less than the limit.
        if (granted < claimed) expect(count).toBe(limit)
        // What a process claimed and did not spend goes back, and is granted again later.
        count -= Math.min(unspent, granted)
      }
    }
  )
})
