// File: client/rest/tls_client.h
//
// The client side of TLS to an API server (or a webhook), with OpenSSL alone: how a RestConfig's
// TlsConfig becomes an SSL_CTX, what each connection announces (SNI) and which name it checks
// the server's certificate for, and why a handshake failed in words a user can act on. The
// transport (http_transport.cc) owns the sockets; this file owns the trust decisions.
//
// Trust follows kubectl: the kubeconfig's CA when given (and only it), else the system roots;
// insecure-skip-tls-verify checks nothing. The name checked is tls.server_name when set (the
// kubeconfig's tls-server-name), else the URL's host: an IP address must be among the
// certificate's IP SANs, a DNS name among its DNS SANs. SNI is sent for DNS names only (RFC 6066
// forbids IP literals), as Go's crypto/tls does. TLS 1.2 is the floor; ALPN offers http/1.1.
#pragma once

#include <openssl/types.h>

#include <string>

#include "base/status.h"
#include "client/rest/rest_config.h"

namespace lws::rest {

// Sets verification, the CA bundle (or system roots), the client certificate and key, the
// protocol floor and ALPN on `context`. Errors name the PEM that failed and OpenSSL's reason.
Status ConfigureClientContext(SSL_CTX* context, const TlsConfig& tls);

// Sets SNI and the expected name on a new connection to `host` (as in the URL, without
// brackets for IPv6).
Status PrepareClientSession(SSL* ssl, const std::string& host, const TlsConfig& tls);

// Why a handshake on `ssl` failed: the certificate verification error when there was one
// ("x509: certificate signed by unknown authority (unable to get local issuer certificate)"),
// else `transport_error`.
std::string DescribeHandshakeFailure(SSL* ssl, const std::string& transport_error);

// True for "127.0.0.1", "::1" and the like.
bool IsIpAddress(const std::string& host);

}  // namespace lws::rest
