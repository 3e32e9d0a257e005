import { LinkMachine } from "@switch/core"
import { describe, expect, expectTypeOf, it } from "vitest"
import { LinkStates } from "./LinkStates.js"
import type { LinkEstado } from "./Types.js"

describe("LinkStates", () => {
  it("are the server's link states (@switch/core's LinkMachine.LinkStates), in order", () => {
    expect(LinkStates).toEqual(LinkMachine.LinkStates)
  })

  it("name every estado a link can have, and only those", () => {
    expectTypeOf<(typeof LinkStates)[number]>().toEqualTypeOf<LinkEstado>()
  })
})
