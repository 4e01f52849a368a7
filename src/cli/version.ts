// The version `hookwarden --version` prints (a test pins it to package.json's).
export const VERSION = '0.1.0';
