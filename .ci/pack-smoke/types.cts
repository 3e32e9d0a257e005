// The same types through `require` (the package's .d.cts).
import sdk = require("@switch/sdk")

const sw = new sdk.Switch({ key: "demo:sk_test_smoke" })
export const list = async (): Promise<ReadonlyArray<sdk.Link>> =>
  sw.links.list({ estado: "pagado" }).toArray()
// @ts-expect-error there is no such resource
sw.nothing
