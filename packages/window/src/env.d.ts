/** Stylesheets are imported for their side effect; Vite bundles them into a file. */
declare module '*.css';
