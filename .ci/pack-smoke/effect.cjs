const assert = require("node:assert/strict")
const { SwitchClient, SwitchApi } = require("@switch/sdk/effect")

assert.equal(typeof SwitchClient.layerFetch, "function")
assert.ok(SwitchApi.groups.links)
console.log("effect cjs ok")
