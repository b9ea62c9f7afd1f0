/**
 * The app as an ordered list of components (docs/architecture.md; fastify's avvio: start in
 * order, close in reverse). A start that fails unwinds the components already started, last
 * first, and rethrows; `stop()` of the started list unwinds the same way, each stop once.
 */

/** One part of the running app: started in list order, stopped in reverse. */
export interface Component {
  readonly name: string;
  start(): Promise<void> | void;
  stop(): Promise<void> | void;
}

/** Started components; `stop()` stops each once, in reverse order, however often it is called. */
export interface StartedComponents {
  stop(): Promise<void>;
}

/**
 * Starts `components` in order. When one fails to start, the ones started before it are stopped
 * in reverse (a failing stop is reported through `onStopError` and the unwinding goes on) and
 * the start's error is thrown.
 */
export async function startComponents(components: readonly Component[], onStopError: (name: string, error: unknown) => void = () => {}): Promise<StartedComponents> {
  const started: Component[] = [];
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      for (const component of started.reverse()) {
        try {
          await component.stop();
        } catch (error) {
          onStopError(component.name, error);
        }
      }
    })();
    return stopping;
  };
  for (const component of components) {
    try {
      await component.start();
    } catch (error) {
      await stop();
      throw error;
    }
    started.push(component);
  }
  return { stop };
}
