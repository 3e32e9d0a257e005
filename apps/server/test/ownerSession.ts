/**
 * A portal user's session: signs `email` in with its password and returns the session's cookie
 * and CSRF token as request headers.
 */
export const signInOwner = async (url: string, email: string, password: string) => {
  const reply = await fetch(`${url}/switch/v1/sesion`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password })
  })
  const body = (await reply.json()) as { csrf_token: string }
  return {
    cookie: (reply.headers.getSetCookie()[0] ?? "").split(";")[0] ?? "",
    "x-csrf-token": body.csrf_token
  }
}
