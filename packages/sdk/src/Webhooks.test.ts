import { createHmac } from "node:crypto"
import { Webhooks } from "@switch/api"
import { describe, expect, expectTypeOf, it } from "vitest"
import { WebhookVerificationError } from "./Errors.js"
import type { ApiEventName } from "./Types.js"
import {
  EventNames,
  generateTestHeader,
  parseSignatureHeader,
  signatureHeaders,
  timingSafeEqual,
  verify
} from "./Webhooks.js"

const secret = "whsec_dGVzdC1zZWNyZXQtZGUtMzItYnl0ZXMtcGFyYS1obWFjIQ=="
const body = JSON.stringify({
  id: "evt_6f1c2b1e-8b7a-4c1d-9f3e-2a5b7c9d1e0f",
  evento: "link.pagado",
  creado_en: "2026-03-02T15:04:05.000Z",
  data: { link_id: "l1", monto: 150.5, propina: 0, total: 150.5, mode: "test" }
})
const t = 1_772_463_845
const now = t * 1000
// The vector, computed independently with node:crypto: HMAC-SHA256(secret, "<t>.<body>").
const v1 = createHmac("sha256", secret).update(`${t}.${body}`).digest("hex")
const header = `t=${t},v1=${v1}`

// Standard Webhooks (DESIGN §8), computed independently: the key is the bytes the secret's base64
// encodes, the signed text "<id>.<t>.<body>", the signature base64.
const deliveryId = "3f6d0b7e-2f4c-4b8e-9a51-0c7d2e8f1a6b"
const standard = createHmac("sha256", Buffer.from(secret.slice("whsec_".length), "base64"))
  .update(`${deliveryId}.${t}.${body}`)
  .digest("base64")
const standardHeaders = {
  "webhook-id": deliveryId,
  "webhook-timestamp": String(t),
  "webhook-signature": `v1,${standard}`
}
const legacy = createHmac("sha256", secret).update(body).digest("hex")
const legacyHeaders = { "x-service-signature": `sha256=${legacy}`, "x-service-timestamp": String(t) }
const v2Headers = { "x-service-signature-v2": header }
const eachHeader = [
  ["webhook-signature", standardHeaders],
  ["x-service-signature-v2", v2Headers],
  ["x-service-signature", legacyHeaders]
] as const

const rejection = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e
  )
  expect(error).toBeInstanceOf(WebhookVerificationError)
  return (error as WebhookVerificationError).reason
}

describe("webhook verification", () => {
  it("signs exactly as DESIGN §5 says (fixed vector)", async () => {
    // Computed once with `openssl dgst -sha256 -hmac whsec_abc` over "1700000000.hola".
    expect(await generateTestHeader({ payload: "hola", secret: "whsec_abc", timestamp: 1700000000 })).toBe(
      "t=1700000000,v1=3207aaf6953219910cabcf3d90ec51a3eafb1a02ed99cf32e1d1cba4e54ee2bd"
    )
    expect(await generateTestHeader({ payload: body, secret, timestamp: t })).toBe(header)
  })

  it("accepts the raw body as a string, Buffer, Uint8Array or ArrayBuffer, and returns the typed event", async () => {
    const bytes = new TextEncoder().encode(body)
    for (const raw of [body, Buffer.from(body), bytes, bytes.buffer.slice(0)]) {
      const event = await verify(raw, { "x-service-signature-v2": header }, secret, { now })
      expect(event.evento).toBe("link.pagado")
      if (event.evento === "link.pagado") expect(event.data.monto).toBe(150.5)
    }
  })

  it("reads Fetch Headers and Node header records, in any case", async () => {
    expect(
      (await verify(body, new Headers({ "X-Service-Signature-V2": header }), secret, { now })).id
    ).toMatch(/^evt_/)
    expect((await verify(body, { "X-SERVICE-SIGNATURE-V2": [header] }, secret, { now })).id).toMatch(/^evt_/)
  })

  it("accepts any matching v1 while a secret rotates", async () => {
    const rotated = `t=${t},v1=${"0".repeat(64)},v1=${v1}`
    expect((await verify(body, { "x-service-signature-v2": rotated }, secret, { now })).evento).toBe(
      "link.pagado"
    )
  })

  it("rejects a tampered body", async () => {
    const tampered = body.replace("150.5", "1500.5")
    expect(await rejection(verify(tampered, { "x-service-signature-v2": header }, secret, { now }))).toBe(
      "bad_signature"
    )
  })

  it("rejects a wrong secret", async () => {
    expect(await rejection(verify(body, { "x-service-signature-v2": header }, "whsec_otro", { now }))).toBe(
      "bad_signature"
    )
  })

  it("rejects a stale or far-future timestamp, with the tolerance configurable", async () => {
    const h = { "x-service-signature-v2": header }
    expect(await rejection(verify(body, h, secret, { now: now + 301_000 }))).toBe("stale_timestamp")
    expect(await rejection(verify(body, h, secret, { now: now - 301_000 }))).toBe("stale_timestamp")
    expect((await verify(body, h, secret, { now: now + 299_000 })).evento).toBe("link.pagado")
    expect((await verify(body, h, secret, { now: now + 3_000_000, toleranceSec: 3600 })).evento).toBe(
      "link.pagado"
    )
  })

  it("does not let a replay pass by changing the timestamp", async () => {
    const replay = `t=${t + 1000},v1=${v1}`
    expect(
      await rejection(verify(body, { "x-service-signature-v2": replay }, secret, { now: now + 1_000_000 }))
    ).toBe("bad_signature")
  })

  it("rejects a missing or malformed header", async () => {
    expect(await rejection(verify(body, {}, secret, { now }))).toBe("missing_header")
    // The body-only signature needs its timestamp header to be judged against the tolerance.
    expect(
      await rejection(verify(body, { "x-service-signature": `sha256=${legacy}` }, secret, { now }))
    ).toBe("missing_header")
    expect(await rejection(verify(body, { "x-service-signature-v2": "v1=abc" }, secret, { now }))).toBe(
      "malformed_header"
    )
    expect(
      await rejection(
        verify(body, { "webhook-signature": `v1,${standard}`, "webhook-timestamp": `${t}` }, secret, { now })
      )
    ).toBe("missing_header")
    expect(
      await rejection(verify(body, { ...standardHeaders, "webhook-signature": "v2,abc" }, secret, { now }))
    ).toBe("malformed_header")
  })

  it("refuses a body that was already parsed, saying how to get the raw one", async () => {
    const error = await verify(JSON.parse(body), { "x-service-signature-v2": header }, secret, { now }).then(
      () => undefined,
      (e: unknown) => e as WebhookVerificationError
    )
    expect(error?.reason).toBe("parsed_body")
    expect(error?.message).toMatch(/raw body/)
  })

  it("builds the full header set a receiver sees", async () => {
    const headers = await signatureHeaders({ payload: body, secret, timestamp: t })
    expect(headers["x-service-event"]).toBe("link.pagado")
    expect(headers["x-service-timestamp"]).toBe(String(t))
    expect(headers["x-service-signature"]).toBe(
      `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`
    )
    expect(headers["x-service-signature-v2"]).toBe(header)
  })

  it("parses the header and compares in constant time", () => {
    expect(parseSignatureHeader(`t=1, v1=AB`)).toEqual({ timestamp: 1, signatures: ["ab"] })
    expect(parseSignatureHeader("t=x,v1=ab")).toBeUndefined()
    expect(timingSafeEqual("abc", "abc")).toBe(true)
    expect(timingSafeEqual("abc", "abd")).toBe(false)
    expect(timingSafeEqual("abc", "ab")).toBe(false)
  })

  describe.each(eachHeader)("with %s alone", (_name, headers) => {
    it("a genuine notice verifies", async () => {
      expect((await verify(body, headers, secret, { now })).evento).toBe("link.pagado")
    })

    it("a tampered body or another secret is a bad signature", async () => {
      expect(await rejection(verify(body.replace("150.5", "1500.5"), headers, secret, { now }))).toBe(
        "bad_signature"
      )
      expect(await rejection(verify(body, headers, "whsec_b3Ryby1zZWNyZXRv", { now }))).toBe("bad_signature")
    })

    it("a notice older or newer than 5 minutes is refused by default, and the tolerance is configurable", async () => {
      expect(await rejection(verify(body, headers, secret, { now: now + 301_000 }))).toBe("stale_timestamp")
      expect(await rejection(verify(body, headers, secret, { now: now - 301_000 }))).toBe("stale_timestamp")
      expect((await verify(body, headers, secret, { now: now + 300_000 })).evento).toBe("link.pagado")
      expect(await rejection(verify(body, headers, secret, { now: now + 61_000, toleranceSec: 60 }))).toBe(
        "stale_timestamp"
      )
      expect((await verify(body, headers, secret, { now: now + 3_000_000, toleranceSec: 3600 })).evento).toBe(
        "link.pagado"
      )
    })
  })

  it("a Standard Webhooks signature is bound to its id and timestamp", async () => {
    const h = (over: Record<string, string>) => ({ ...standardHeaders, ...over })
    expect(await rejection(verify(body, h({ "webhook-id": "otro" }), secret, { now }))).toBe("bad_signature")
    const later = String(t + 1000)
    expect(
      await rejection(verify(body, h({ "webhook-timestamp": later }), secret, { now: now + 1_000_000 }))
    ).toBe("bad_signature")
    // Several signatures, space-separated, while a secret rotates.
    expect(
      (await verify(body, h({ "webhook-signature": `v1,AAAA v1,${standard}` }), secret, { now })).id
    ).toMatch(/^evt_/)
  })

  it("the strongest signature present decides: a bad one is not rescued by a weaker one", async () => {
    const forged = { ...legacyHeaders, ...v2Headers, ...standardHeaders, "webhook-signature": "v1,AAAA" }
    expect(await rejection(verify(body, forged, secret, { now }))).toBe("bad_signature")
    const staleV2 = { ...legacyHeaders, "x-service-signature-v2": `t=${t - 1000},v1=${v1}` }
    expect(await rejection(verify(body, staleV2, secret, { now }))).toBe("bad_signature")
  })

  it("`accept` limits which signatures count: the body-only one can be refused", async () => {
    const options = { now, accept: ["webhook-signature", "x-service-signature-v2"] as const }
    expect(await rejection(verify(body, legacyHeaders, secret, options))).toBe("missing_header")
    expect((await verify(body, { ...legacyHeaders, ...standardHeaders }, secret, options)).evento).toBe(
      "link.pagado"
    )
  })

  it("signatureHeaders builds the Standard Webhooks headers too", async () => {
    const headers = await signatureHeaders({ payload: body, secret, timestamp: t, id: deliveryId })
    expect(headers["webhook-id"]).toBe(deliveryId)
    expect(headers["webhook-timestamp"]).toBe(String(t))
    expect(headers["webhook-signature"]).toBe(`v1,${standard}`)
    expect(headers["x-service-delivery"]).toBe(deliveryId)
  })
})

describe("EventNames", () => {
  it("are the API's notice names (@switch/api's Webhooks.EventNames), in order", () => {
    expect(EventNames).toEqual(Webhooks.EventNames)
  })

  it("name every notice the API declares, and only those", () => {
    expectTypeOf<(typeof EventNames)[number]>().toEqualTypeOf<ApiEventName>()
  })
})
