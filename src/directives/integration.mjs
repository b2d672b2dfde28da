import { fileURLToPath } from 'node:url';
/** Registers `client:interaction` (see interaction.ts). */
export default function interactionDirective() {
  return {
    name: 'client-interaction-directive',
    hooks: {
      'astro:config:setup': ({ addClientDirective }) => {
        addClientDirective({
          name: 'interaction',
          entrypoint: fileURLToPath(new URL('./interaction.ts', import.meta.url)),
        });
      },
    },
  };
}
