import { EndpointType, type RestApi, SecurityPolicy } from 'aws-cdk-lib/aws-apigateway';
import { Certificate, CertificateValidation } from 'aws-cdk-lib/aws-certificatemanager';
import { ARecord, HostedZone, RecordTarget } from 'aws-cdk-lib/aws-route53';
import { ApiGatewayDomain } from 'aws-cdk-lib/aws-route53-targets';
import type { Construct } from 'constructs';
import type { TCustomDomain } from '../stage-config';

/**
 * The API on the operator's domain, the stage mapped at its root (TLS 1.2 or later), with the
 * operator's ACM certificate, or a new one validated in their Route 53 zone, which then also gets
 * the alias record. Answers the domain's origin.
 */
export function customDomainOf(scope: Construct, api: RestApi, domain: TCustomDomain): string {
  const zone =
    'hostedZoneId' in domain
      ? HostedZone.fromHostedZoneAttributes(scope, 'DomainZone', {
          hostedZoneId: domain.hostedZoneId,
          zoneName: domain.hostedZoneName,
        })
      : undefined;
  const certificate =
    'certificateArn' in domain
      ? Certificate.fromCertificateArn(scope, 'DomainCertificate', domain.certificateArn)
      : new Certificate(scope, 'DomainCertificate', {
          domainName: domain.domainName,
          validation: CertificateValidation.fromDns(zone),
        });
  const name = api.addDomainName('Domain', {
    domainName: domain.domainName,
    certificate,
    endpointType: EndpointType.REGIONAL,
    securityPolicy: SecurityPolicy.TLS_1_2,
  });
  if (zone) {
    new ARecord(scope, 'DomainRecord', {
      zone,
      recordName: domain.domainName,
      target: RecordTarget.fromAlias(new ApiGatewayDomain(name)),
    });
  }
  return `https://${domain.domainName}`;
}
