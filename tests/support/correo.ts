/**
 * The development mailbox (`/panel/dev/correos?formato=json`) as a test reads it, and the
 * e-mail confirmation live mode needs since issue 45: the link mailed at a sign-up with a
 * password, used as its owner would.
 */
import { call } from "./stack.js"

export interface Correo {
  readonly to: string
  readonly subject: string
  readonly text: string
}

/** The mails to `to` now in the development mailbox, newest first. */
export const correosA = async (base: string, to: string): Promise<Array<Correo>> => {
  const reply = await fetch(`${base}/panel/dev/correos?formato=json`)
  const mails = (await reply.json()) as Array<Correo>
  return mails.filter((m) => m.to.toLowerCase() === to.toLowerCase())
}

/** The token of the confirmation link mailed to `email` (waits for it: it leaves after the answer). */
export const verificationToken = async (base: string, email: string): Promise<string> => {
  const deadline = Date.now() + 15_000
  for (;;) {
    const token = (await correosA(base, email))
      .map((m) => /\/panel\/verificar#token=([\w-]+)/.exec(m.text)?.[1])
      .find((t) => t !== undefined)
    if (token !== undefined) return token
    if (Date.now() > deadline) throw new Error(`no confirmation mail to ${email}`)
    await new Promise((r) => setTimeout(r, 150))
  }
}

/** Confirms `email` with its mailed link through the API. */
export const verifyEmail = async (base: string, email: string) => {
  const token = await verificationToken(base, email)
  const reply = await call(base, "POST", "/switch/v1/correo/verificar", { body: { token } })
  if (reply.status !== 200) throw new Error(`verify failed: ${reply.status} ${JSON.stringify(reply.body)}`)
}
