// The parts of OpenSSL 3's libcrypto the server uses: RS256 signing through EVP
// (SesameProvider/Keys/LibcryptoRS256Signer.swift).
#ifndef SESAME_CLIBCRYPTO_SHIM_H
#define SESAME_CLIBCRYPTO_SHIM_H
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>
#endif
