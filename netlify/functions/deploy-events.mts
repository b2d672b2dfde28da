import type { DeployBuildingEvent, DeployFailedEvent, DeploySucceededEvent } from '@netlify/functions';
import { recordDeployEvent } from '../../src/server/deploy-events';

/**
 * Netlify runs these when a deploy of this site starts building, goes live or fails (platform events: nothing to
 * set up, no address anyone else can call). Production's are kept, so the admin can say a rebuild it asked for
 * failed (src/server/rebuild.ts).
 */
export default {
  async deployBuilding({ deploy }: DeployBuildingEvent) {
    await recordDeployEvent(deploy, 'building');
  },
  async deploySucceeded({ deploy }: DeploySucceededEvent) {
    await recordDeployEvent(deploy, 'ready');
  },
  async deployFailed({ deploy }: DeployFailedEvent) {
    await recordDeployEvent(deploy, 'error');
  },
};
