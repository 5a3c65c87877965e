package framework

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/hex"
	"encoding/pem"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
)

// writeServiceAccountKey writes a fresh RSA key as PKCS#1 PEM. The apiserver
// uses the same file to sign service-account tokens and to verify them; it is
// made in Go so the harness needs no openssl.
func writeServiceAccountKey(path string) error {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return err
	}
	block := &pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)}
	return os.WriteFile(path, pem.EncodeToMemory(block), 0o600)
}

func randomToken() (string, error) {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return hex.EncodeToString(b), nil
}

// writeTokenFile writes the --token-auth-file CSV: token,user,uid,"groups".
func writeTokenFile(path string, users []user, tokens map[string]string) error {
	var b strings.Builder
	for _, u := range users {
		fmt.Fprintf(&b, "%s,%s,%s", tokens[u.name], u.name, u.name)
		if len(u.groups) > 0 {
			fmt.Fprintf(&b, ",%q", strings.Join(u.groups, ","))
		}
		b.WriteString("\n")
	}
	return os.WriteFile(path, []byte(b.String()), 0o600)
}

// auditPolicy logs every request at Metadata level (who, verb, resource,
// user agent, no bodies). The RequestReceived stage is omitted: it would only
// duplicate each event without adding a field the tests look at.
const auditPolicy = `apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: ["RequestReceived"]
rules:
- level: Metadata
`

// writeKubeconfig writes a kubeconfig for one token user. The
// certificate-authority is the apiserver's self-signed certificate file in
// its --cert-dir (it holds the serving certificate and its CA).
func writeKubeconfig(path, server, caFile, userName, token string) error {
	const clusterName = "schedcache-e2e"
	ctxName := clusterName + "-" + userName
	cfg := clientcmdapi.NewConfig()
	cfg.Clusters[clusterName] = &clientcmdapi.Cluster{Server: server, CertificateAuthority: caFile}
	cfg.AuthInfos[userName] = &clientcmdapi.AuthInfo{Token: token}
	cfg.Contexts[ctxName] = &clientcmdapi.Context{Cluster: clusterName, AuthInfo: userName, Namespace: "default"}
	cfg.CurrentContext = ctxName
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	return clientcmd.WriteToFile(*cfg, path)
}
