/** The examples of the team, password and TOTP routes (Equipo.ts, Seguridad.ts), spread into Examples.ts. */
const ana = {
  id: "5b1f0c2e-7d4a-4f0e-9a51-2c8d6e3f4a10",
  email: "ana@panaderia.com.ve",
  rol: "propietario",
  estado: "activo",
  created_at: "2026-11-25T17:58:04.863Z"
} as const
const luis = {
  id: "8c2d4e6f-1a3b-4c5d-8e7f-9a0b1c2d3e4f",
  email: "luis@panaderia.com.ve",
  rol: "cajero",
  estado: "invitado",
  created_at: "2026-11-25T18:02:11.402Z"
} as const

export const equipoExamples = {
  "contrasena.olvido": {
    request: { email: "ana@panaderia.com.ve" },
    response: {
      ok: true,
      detail: "Si el correo tiene un usuario en Switch, le enviamos un enlace para definir su contraseña."
    },
    status: 202
  },
  "contrasena.definir": {
    request: { token: "q3Vb8nR2xL5tY9wE1cK7mP4sD6fH0jA2gZ8uI3oT5vN", password: "una-clave-larga-1" },
    response: { ok: true, email: "ana@panaderia.com.ve" }
  },
  "contrasena.verificarCorreo": {
    request: { token: "Hx7Kp2Qw9Lm4Rt6Yz1Bv3Nc8Df5Gj0Sa2Ue7Io4Py9W" },
    response: { ok: true, email: "ana@panaderia.com.ve" }
  },
  "equipo.list": { response: [ana, luis] },
  "equipo.invitar": {
    request: { email: "luis@panaderia.com.ve", rol: "cajero" },
    response: luis,
    status: 201
  },
  "equipo.cambiarRol": {
    request: { rol: "lectura" },
    response: { ...luis, rol: "lectura" },
    params: { id: luis.id }
  },
  "equipo.eliminar": {
    response: { id: luis.id, eliminado: true, sesiones_cerradas: 1 },
    params: { id: luis.id }
  },
  "totp.inscribir": {
    response: {
      secreto: "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP",
      otpauth_uri:
        "otpauth://totp/Switch%3Aana%40panaderia.com.ve?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=Switch&algorithm=SHA1&digits=6&period=30",
      qr_svg:
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 37 37" shape-rendering="crispEdges"><path fill="#ffffff" d="M0 0h37v37H0z"/><path stroke="#000000" d="M4 4.5h7m2 0h1"/></svg>'
    }
  },
  "totp.confirmar": {
    request: { codigo: "492039" },
    response: {
      totp: true,
      codigos_recuperacion: [
        "k7m2p-q9rst",
        "a3b4c-d5e6f",
        "h8j9k-m2n3p",
        "q4r5s-t6u7v",
        "w8x9y-z2a3b",
        "c4d5e-f6g7h",
        "j8k9m-n2p3q",
        "r4s5t-u6v7w",
        "x8y9z-a2b3c",
        "d4e5f-g6h7j"
      ]
    }
  },
  "totp.recuperacion": {
    request: { codigo: "118274" },
    response: {
      codigos_recuperacion: [
        "k7m2p-q9rst",
        "a3b4c-d5e6f",
        "h8j9k-m2n3p",
        "q4r5s-t6u7v",
        "w8x9y-z2a3b",
        "c4d5e-f6g7h",
        "j8k9m-n2p3q",
        "r4s5t-u6v7w",
        "x8y9z-a2b3c",
        "d4e5f-g6h7j"
      ]
    }
  },
  "totp.desactivar": { request: { codigo: "731408" }, response: { totp: false } },
  "actividad.list": {
    response: [
      {
        id: "42",
        created_at: "2026-11-25T18:05:13.210Z",
        usuario: { id: luis.id, email: luis.email },
        accion: "POST",
        objeto: "/switch/v1/links",
        ip: "190.202.14.7",
        resultado: 201
      },
      {
        id: "41",
        created_at: "2026-11-25T18:04:58.002Z",
        usuario: { id: luis.id, email: luis.email },
        accion: "ingreso",
        objeto: null,
        ip: "190.202.14.7",
        resultado: 200
      }
    ],
    params: { limit: "2" }
  }
}
