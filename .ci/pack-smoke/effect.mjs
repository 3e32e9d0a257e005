// The Effect entry, once its optional peers effect and @effect/platform are installed.
import assert from "node:assert/strict"
import { makeSwitchClientFetch, SwitchApi, SwitchClient } from "@switch/sdk/effect"

assert.equal(typeof SwitchClient.layerFetch, "function")
assert.equal(typeof makeSwitchClientFetch, "function")
assert.ok(SwitchApi.groups.links)
console.log("effect esm ok")
