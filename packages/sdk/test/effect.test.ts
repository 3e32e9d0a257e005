/** The Effect client derived from @switch/api, against the real server. */
import { Money } from "@switch/core"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { makeSwitchClientFetch, NotFound, SwitchClient, Unauthorized } from "../src/effect.js"
import { baseUrl, newMerchant } from "./support.js"

describe("@switch/sdk/effect", () => {
  it("creates, gets and lists links with the derived client and the key header", async () => {
    const m = await newMerchant("eff")
    const program = Effect.gen(function* () {
      const client = yield* SwitchClient
      const link = yield* client.links.create({
        payload: { monto: Money.Cents(2550), concepto: "desde Effect", moneda: "VES" }
      })
      const got = yield* client.links.get({ path: { id: link.id } })
      const listed = yield* client.links.list({ urlParams: { estado: "pendiente" } })
      return { link, got, listed }
    })
    const { link, got, listed } = await Effect.runPromise(
      program.pipe(Effect.provide(SwitchClient.layerFetch({ key: m.key, baseUrl: baseUrl() })))
    )
    expect(link.monto).toBe(25.5)
    expect(got.id).toBe(link.id)
    expect(listed.map((l) => l.id)).toContain(link.id)
  })

  it("fails with the contract's typed errors", async () => {
    const m = await newMerchant("eff")
    const notFound = await Effect.runPromise(
      Effect.flatMap(makeSwitchClientFetch({ key: m.key, baseUrl: baseUrl() }), (c) =>
        c.links.get({ path: { id: "00000000-0000-4000-8000-000000000000" } })
      ).pipe(Effect.flip)
    )
    expect(notFound).toBeInstanceOf(NotFound)
    const unauthorized = await Effect.runPromise(
      Effect.flatMap(makeSwitchClientFetch({ key: `${m.codigo}:sk_test_mala`, baseUrl: baseUrl() }), (c) =>
        c.config.get()
      ).pipe(Effect.flip)
    )
    expect(unauthorized).toBeInstanceOf(Unauthorized)
  })
})
