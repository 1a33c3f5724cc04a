// The lazily loaded Vim bundle's entry (see build.mjs).
export { vim } from "@replit/codemirror-vim";
