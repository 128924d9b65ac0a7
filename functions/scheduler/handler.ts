import { configFromEnv } from '../../shared/config';
import { buildScheduler } from './app';

const run = buildScheduler({ config: configFromEnv() });

/** The EventBridge event says nothing the run needs: it works with the clock. */
export const handler = () => run();
