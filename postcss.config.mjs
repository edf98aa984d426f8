/** Tailwind CSS v4 through PostCSS (no network needed). */
const config = { plugins: { "@tailwindcss/postcss": {} } };

export default config;
