/** This package's version, which `socialpub-server --version` prints. A test keeps it equal to package.json's. */
export const SERVER_VERSION = "0.1.0";
