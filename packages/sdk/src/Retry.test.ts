import { describe, expect, it } from "vitest"
import { ConnectionError, errorFromResponse, parseRetryAfter, TimeoutError } from "./Errors.js"
import { backoffDelay, retryDecision } from "./Retry.js"

const answer = (status: number, body: unknown = {}, headers: Record<string, string> = {}) =>
  errorFromResponse(status, body, headers)
const network = new ConnectionError({ code: "connection_error" })

describe("backoff", () => {
  it("doubles from 500 ms and stays within [base/2, base]", () => {
    expect(backoffDelay(0, {}, () => 0)).toBe(250)
    expect(backoffDelay(0, {}, () => 1)).toBe(500)
    expect(backoffDelay(1, {}, () => 1)).toBe(1000)
    expect(backoffDelay(2, {}, () => 0.5)).toBe(1500)
  })

  it("never exceeds the ceiling, however many attempts", () => {
    for (let attempt = 0; attempt < 40; attempt++) {
      expect(backoffDelay(attempt, { maxDelayMs: 8000 }, () => 1)).toBeLessThanOrEqual(8000)
    }
    expect(backoffDelay(30, { initialDelayMs: 100, maxDelayMs: 2000 }, () => 0)).toBe(1000)
  })

  it("jitters: two clients with different random draws wait different times", () => {
    expect(backoffDelay(3, {}, () => 0.1)).not.toBe(backoffDelay(3, {}, () => 0.9))
  })
})

describe("retry decision", () => {
  const base = { attempt: 0, maxRetries: 2, idempotent: true, random: () => 1 }

  it("stops after maxRetries", () => {
    expect(retryDecision({ ...base, error: network, attempt: 2 })).toEqual({ retry: false })
    expect(retryDecision({ ...base, error: network, maxRetries: 0 })).toEqual({ retry: false })
  })

  it("repeats a network failure or timeout only when the request is idempotent", () => {
    expect(retryDecision({ ...base, error: network })).toEqual({ retry: true, delayMs: 500 })
    expect(retryDecision({ ...base, error: new TimeoutError({ code: "timeout" }) }).retry).toBe(true)
    expect(retryDecision({ ...base, error: network, idempotent: false })).toEqual({ retry: false })
  })

  it("repeats 500/502/504 only when idempotent, 503 and 429 always", () => {
    for (const status of [500, 502, 504]) {
      expect(retryDecision({ ...base, error: answer(status) }).retry).toBe(true)
      expect(retryDecision({ ...base, error: answer(status), idempotent: false }).retry).toBe(false)
    }
    expect(retryDecision({ ...base, error: answer(503), idempotent: false }).retry).toBe(true)
    expect(retryDecision({ ...base, error: answer(429), idempotent: false }).retry).toBe(true)
  })

  it("waits at least what Retry-After asks", () => {
    const limited = answer(429, {}, { "retry-after": "7" })
    expect(retryDecision({ ...base, error: limited })).toEqual({ retry: true, delayMs: 7000 })
  })

  it("gives up when Retry-After asks for longer than maxRetryAfterMs (the bank close lasts hours)", () => {
    const close = answer(503, { error: "cierre_bancario", reintentar_en: 5400 }, { "retry-after": "5400" })
    expect(retryDecision({ ...base, error: close })).toEqual({ retry: false })
    expect(retryDecision({ ...base, error: answer(429, {}, { "retry-after": "61" }) })).toEqual({
      retry: false
    })
    expect(
      retryDecision({
        ...base,
        error: answer(429, {}, { "retry-after": "61" }),
        config: { maxRetryAfterMs: 120_000 }
      })
    ).toEqual({ retry: true, delayMs: 61_000 })
  })

  it("never repeats a client error", () => {
    for (const status of [400, 401, 403, 404, 409, 422]) {
      expect(retryDecision({ ...base, error: answer(status) }).retry).toBe(false)
    }
  })
})

describe("Retry-After", () => {
  it("reads delta-seconds and HTTP dates", () => {
    const now = Date.parse("2026-01-01T00:00:00Z")
    expect(parseRetryAfter("12", now)).toBe(12)
    expect(parseRetryAfter("Thu, 01 Jan 2026 00:00:30 GMT", now)).toBe(30)
    expect(parseRetryAfter("Wed, 31 Dec 2025 23:00:00 GMT", now)).toBe(0)
    expect(parseRetryAfter(undefined, now)).toBeUndefined()
    expect(parseRetryAfter("pronto", now)).toBeUndefined()
  })
})
