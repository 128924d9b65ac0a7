// What an operator watches: one alarm topic (optionally mailed), every alarm of the stack acting
// on it, the alarms a running service needs, and one dashboard of the same figures.
import { Duration, Stack } from 'aws-cdk-lib';
import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import {
  Alarm,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  type IMetric,
  MathExpression,
  Metric,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { acceptFinding } from '../nag';
import { ApiFunction } from './api-function';

/** Thresholds of the alarms, exported for the template tests. */
export const ALARM_THRESHOLDS = {
  /** Percent of API requests answered 5xx over five minutes. */
  api5xxPercent: 5,
  /** A job waiting this long in its queue means its worker is stuck or failing. */
  oldestJobSeconds: 15 * 60,
  /** SES reviews an account from 5 % bounces and 0.1 % complaints; these alarm before. */
  sesBounceRate: 0.04,
  sesComplaintRate: 0.0008,
} as const;

/**
 * An alarm on a dead-letter queue's first message, made where its queue is: it stays in the
 * stack's scope (logical IDs as before), and finish() puts the topic on it like on every alarm.
 */
export function deadLetterAlarm(scope: Construct, id: string, description: string, queue: IQueue): Alarm {
  return new Alarm(scope, id, {
    alarmDescription: description,
    metric: queue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5) }),
    threshold: 1,
    evaluationPeriods: 1,
    comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    treatMissingData: TreatMissingData.NOT_BREACHING,
  });
}

export interface TOperationsProps {
  stage: string;
  alarmEmail?: string;
  api: RestApi;
  table: ITable;
  /** The queues whose oldest job is watched, by what their jobs are. */
  queues: { what: string; queue: IQueue }[];
}

export class Operations extends Construct {
  readonly topic: Topic;
  /** The alarms a deploy of each function watches (its errors and throttles; the API's 5xx rate). */
  readonly alarmsOf = new Map<ApiFunction, Alarm[]>();
  private readonly props: TOperationsProps;

  constructor(scope: Construct, id: string, props: TOperationsProps) {
    super(scope, id);
    this.props = props;
    this.topic = new Topic(this, 'AlarmTopic', {
      topicName: `esign-${props.stage}-alarms`,
      displayName: `esign-${props.stage}: alarms`,
      enforceSSL: true,
    });
    acceptFinding(
      this.topic,
      'SNS2',
      "Alarm notifications name an alarm and a figure, nothing secret; CloudWatch cannot publish to a topic encrypted with SNS's AWS managed key, and a key of our own would cost more than it protects.",
    );
    if (props.alarmEmail) this.topic.addSubscription(new EmailSubscription(props.alarmEmail));
  }

  /**
   * The service's alarms and the dashboard, then the topic on every alarm of the stack, those
   * made elsewhere (dead letters) included: call last, once every function and alarm exists.
   */
  finish(): void {
    const { api, table, queues } = this.props;
    const stack = Stack.of(this);
    const fiveMinutes = Duration.minutes(5);
    const functions = stack.node.findAll().filter((c): c is ApiFunction => c instanceof ApiFunction);

    const apiErrorRate = new MathExpression({
      expression: '100 * errors / MAX([requests, 1])',
      usingMetrics: {
        errors: api.metricServerError({ period: fiveMinutes, statistic: 'Sum' }),
        requests: api.metricCount({ period: fiveMinutes, statistic: 'Sum' }),
      },
      label: 'API 5xx (%)',
      period: fiveMinutes,
    });
    const api5xx = this.alarm(
      'Api5xxRateAlarm',
      apiErrorRate,
      ALARM_THRESHOLDS.api5xxPercent,
      'API answers 5xx',
    );

    for (const f of functions) {
      const name = f.node.id.replace(/Function$/, '');
      const errors = this.alarm(
        `${name}ErrorsAlarm`,
        f.fn.metricErrors({ period: fiveMinutes, statistic: 'Sum' }),
        1,
        `${f.fn.functionName}: invocations failed (see its log group)`,
      );
      const throttles = this.alarm(
        `${name}ThrottlesAlarm`,
        f.fn.metricThrottles({ period: fiveMinutes, statistic: 'Sum' }),
        1,
        `${f.fn.functionName}: invocations throttled (concurrency)`,
      );
      this.alarmsOf.set(f, [errors, throttles, api5xx]);
    }
    for (const { what, queue } of queues) {
      this.alarm(
        `${what.replace(/[^A-Za-z]/g, '')}WaitingAlarm`,
        queue.metricApproximateAgeOfOldestMessage({ period: fiveMinutes, statistic: 'Maximum' }),
        ALARM_THRESHOLDS.oldestJobSeconds,
        `${what}: the oldest has waited ${ALARM_THRESHOLDS.oldestJobSeconds / 60} minutes (worker stuck or failing)`,
      );
    }
    const ses = (metricName: string) =>
      new Metric({ namespace: 'AWS/SES', metricName, period: Duration.hours(1), statistic: 'Maximum' });
    this.alarm(
      'SesBounceRateAlarm',
      ses('Reputation.BounceRate'),
      ALARM_THRESHOLDS.sesBounceRate,
      'SES bounce rate nearing the level at which AWS reviews the account',
    );
    this.alarm(
      'SesComplaintRateAlarm',
      ses('Reputation.ComplaintRate'),
      ALARM_THRESHOLDS.sesComplaintRate,
      'SES complaint rate nearing the level at which AWS reviews the account',
    );
    const throttles = new MathExpression({
      expression: 'reads + writes',
      usingMetrics: {
        reads: table.metric('ReadThrottleEvents', { period: fiveMinutes, statistic: 'Sum' }),
        writes: table.metric('WriteThrottleEvents', { period: fiveMinutes, statistic: 'Sum' }),
      },
      label: 'DynamoDB throttled requests',
      period: fiveMinutes,
    });
    this.alarm('TableThrottlesAlarm', throttles, 1, 'DynamoDB throttled requests of the table');

    new Dashboard(this, 'Dashboard', {
      dashboardName: `esign-${this.props.stage}`,
      widgets: [
        [
          new GraphWidget({ title: 'API requests', left: [api.metricCount({ period: fiveMinutes })] }),
          new GraphWidget({ title: 'API 5xx (%)', left: [apiErrorRate] }),
          new GraphWidget({
            title: 'API latency (p50, p99)',
            left: [api.metricLatency({ statistic: 'p50' }), api.metricLatency({ statistic: 'p99' })],
          }),
        ],
        [
          new GraphWidget({
            title: 'Function errors',
            left: functions.map((f) => f.fn.metricErrors({ period: fiveMinutes, label: f.fn.functionName })),
          }),
          new GraphWidget({
            title: 'Function throttles',
            left: functions.map((f) =>
              f.fn.metricThrottles({ period: fiveMinutes, label: f.fn.functionName }),
            ),
          }),
        ],
        [
          new GraphWidget({
            title: 'Oldest job waiting (s)',
            left: queues.map(({ what, queue }) =>
              queue.metricApproximateAgeOfOldestMessage({ period: fiveMinutes, label: what }),
            ),
          }),
          new GraphWidget({
            title: 'SES reputation',
            left: [ses('Reputation.BounceRate'), ses('Reputation.ComplaintRate')],
          }),
          new GraphWidget({ title: 'DynamoDB throttles', left: [throttles] }),
        ],
      ],
    });

    const action = new SnsAction(this.topic);
    for (const alarm of stack.node.findAll().filter((c): c is Alarm => c instanceof Alarm)) {
      alarm.addAlarmAction(action);
    }
  }

  private alarm(id: string, metric: IMetric, threshold: number, description: string): Alarm {
    return new Alarm(this, id, {
      alarmDescription: description,
      metric,
      threshold,
      evaluationPeriods: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
  }
}
