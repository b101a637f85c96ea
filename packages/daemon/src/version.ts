/** This build's version (the daemon reports it; a backup's manifest records it). */
export const VERSION = "0.1.0";
