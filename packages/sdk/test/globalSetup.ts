/** One real stack for the whole integration run: the built server on embedded Postgres. */
import type { TestProject } from "vitest/node"
import { ADMIN_TOKEN, startStack } from "../../../tests/support/stack.js"

declare module "vitest" {
  export interface ProvidedContext {
    switchUrl: string
    demoKey: string
    adminToken: string
  }
}

export default async function setup(project: TestProject) {
  const stack = await startStack({
    // The webhook tests and the receiver example listen on plain http on loopback.
    SWITCH_WEBHOOK_ALLOW_PRIVATE: "1",
    // Every test file registers its own merchants, so each stays under the 120/min API limit.
    SWITCH_REGISTROS_POR_HORA: "1000",
    SWITCH_VERIFICAR_POR_MINUTO: "1000"
  })
  project.provide("switchUrl", stack.url)
  project.provide("demoKey", stack.demoKey)
  project.provide("adminToken", ADMIN_TOKEN)
  return async () => {
    await stack.stop()
  }
}
