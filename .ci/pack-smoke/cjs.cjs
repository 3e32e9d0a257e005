// The Promise entry from CommonJS.
const assert = require("node:assert/strict")
const { ConflictError, errorFromResponse, Switch } = require("@switch/sdk")

const main = async () => {
  const sw = new Switch({ key: "demo:sk_live_smoke", baseUrl: "http://127.0.0.1:9", maxRetries: 0 })
  assert.equal(sw.mode, "live")
  const secret = "whsec_smoke"
  const payload = JSON.stringify({
    id: "evt_1",
    evento: "webhook.test",
    creado_en: "2026-01-01T00:00:00Z",
    data: {}
  })
  const headers = await Switch.webhooks.signatureHeaders({ payload, secret })
  assert.equal((await Switch.webhooks.verify(payload, headers, secret)).evento, "webhook.test")
  assert.ok(errorFromResponse(409, { error: "no_cancelable" }, {}) instanceof ConflictError)
  await assert.rejects(sw.config.get(), (e) => e.type === "ConnectionError")
  // The Promise entry needs nothing else: effect is an optional peer of the Effect entry only.
  assert.throws(() => require.resolve("effect"))
  console.log("cjs ok")
}
main().catch((error) => {
  console.error(error)
  process.exit(1)
})
