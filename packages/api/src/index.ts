/** @switch/api: the HTTP contract of Switch as an @effect/platform HttpApi. */
export * from "./Api.js"
export * as Comercios from "./Comercios.js"
export * from "./Errors.js"
export * as Links from "./Links.js"
export * as Lotes from "./Lotes.js"
export * as Recibos from "./Recibos.js"
export * from "./Security.js"
