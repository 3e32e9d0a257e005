/** TOTP steps for tests that type an authenticator's code. */
import { totpStep } from "../src/platform/Totp.js"

/** Waits, if needed, so that the current 30-second step has at least 10 seconds left; that step. */
export const freshStep = async () => {
  const into = (Date.now() / 1000) % 30
  if (into > 20) await new Promise((resolve) => setTimeout(resolve, (30 - into) * 1000 + 50))
  return totpStep(Date.now())
}
