/** The first port of the range the kernel gives outgoing connections (Linux; else its default). */
export declare const ephemeralStart: () => number
/** A loopback port free now, below the range of outgoing connections (FreePort.mjs). */
export declare const freePort: () => Promise<number>
