// The seed's encryption (seed 000 §10.3, SkillSecretService.encrypt and
// deriveKey) written out exactly as the seed gives it, so the Go tests check
// secrets.ImportLegacy against a second implementation.
//
// Usage: node seed_encrypt.js < objects.json
// stdin holds a JSON array of objects; stdout gets one blob per object, one
// per line. The key comes from SKILL_SECRET_KEY || APP_SECRET in the
// environment, as in the seed.
'use strict';
const crypto = require('crypto');

class SkillSecretService {
  algorithm = 'aes-256-gcm';
  ivLength = 16;

  encrypt(plainObj) {
    const iv = crypto.randomBytes(this.ivLength);
    const cipher = crypto.createCipheriv(this.algorithm, this.deriveKey(), iv);
    const encrypted = Buffer.concat([cipher.update(JSON.stringify(plainObj), 'utf8'), cipher.final()]);
    const authTag = cipher.getAuthTag();
    return Buffer.concat([iv, encrypted, authTag]).toString('base64');
  }

  deriveKey() {
    const raw = process.env.SKILL_SECRET_KEY || process.env.APP_SECRET;
    if (!raw) throw new Error('SKILL_SECRET_KEY or APP_SECRET must be set');
    return crypto.createHash('sha256').update(raw).digest(); // 32 bytes
  }
}

const input = require('fs').readFileSync(0, 'utf8');
const service = new SkillSecretService();
for (const obj of JSON.parse(input)) {
  process.stdout.write(service.encrypt(obj) + '\n');
}
