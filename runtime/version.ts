/** The version of the CortexPrism host contract this runtime implements; `peerDependencies.cortex` is checked against it. */
export const CORTEX_VERSION = "1.0.0";
