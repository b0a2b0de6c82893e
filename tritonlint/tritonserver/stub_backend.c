/*
 * A stand-in Triton backend, for the backends the nvidia-pytriton server wheel does not ship.
 *
 * It is compiled by tritonlint (tritonlint/tritonserver/stubs.py) and copied as
 * libtriton_<name>.so for each backend name a model repository uses. It lets the real server
 * run its own validation of every model, and does two things of its own:
 *
 *  - at instance initialization, for the backends Triton ships (onnxruntime, pytorch, tensorrt,
 *    tensorflow, openvino), it refuses a model whose model file is missing from the version
 *    folder, with the message those backends use;
 *  - it answers every request, warmup requests included, with an empty successful response.
 *
 * It never reads the model file. Only the handful of Triton C API functions it calls are
 * declared here: opaque handles, enums passed as int.
 */

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

typedef struct TRITONSERVER_Error TRITONSERVER_Error;
typedef struct TRITONSERVER_Message TRITONSERVER_Message;
typedef struct TRITONBACKEND_Request TRITONBACKEND_Request;
typedef struct TRITONBACKEND_Response TRITONBACKEND_Response;
typedef struct TRITONBACKEND_Model TRITONBACKEND_Model;
typedef struct TRITONBACKEND_ModelInstance TRITONBACKEND_ModelInstance;

enum {
  STUB_ERROR_UNAVAILABLE = 4,      /* TRITONSERVER_ERROR_UNAVAILABLE */
  STUB_RESPONSE_COMPLETE_FINAL = 1, /* TRITONSERVER_RESPONSE_COMPLETE_FINAL */
  STUB_REQUEST_RELEASE_ALL = 1,    /* TRITONSERVER_REQUEST_RELEASE_ALL */
  STUB_ARTIFACT_FILESYSTEM = 0     /* TRITONBACKEND_ARTIFACT_FILESYSTEM */
};

extern TRITONSERVER_Error* TRITONSERVER_ErrorNew(int code, const char* msg);
extern void TRITONSERVER_ErrorDelete(TRITONSERVER_Error* error);
extern TRITONSERVER_Error* TRITONSERVER_MessageSerializeToJson(
    TRITONSERVER_Message* message, const char** base, size_t* byte_size);
extern TRITONSERVER_Error* TRITONSERVER_MessageDelete(TRITONSERVER_Message* message);

extern TRITONSERVER_Error* TRITONBACKEND_ModelInstanceModel(
    TRITONBACKEND_ModelInstance* instance, TRITONBACKEND_Model** model);
extern TRITONSERVER_Error* TRITONBACKEND_ModelInstanceName(
    TRITONBACKEND_ModelInstance* instance, const char** name);
extern TRITONSERVER_Error* TRITONBACKEND_ModelName(
    TRITONBACKEND_Model* model, const char** name);
extern TRITONSERVER_Error* TRITONBACKEND_ModelVersion(
    TRITONBACKEND_Model* model, uint64_t* version);
extern TRITONSERVER_Error* TRITONBACKEND_ModelRepository(
    TRITONBACKEND_Model* model, int* artifact_type, const char** location);
extern TRITONSERVER_Error* TRITONBACKEND_ModelConfig(
    TRITONBACKEND_Model* model, const uint32_t config_version,
    TRITONSERVER_Message** model_config);

extern TRITONSERVER_Error* TRITONBACKEND_ResponseNew(
    TRITONBACKEND_Response** response, TRITONBACKEND_Request* request);
extern TRITONSERVER_Error* TRITONBACKEND_ResponseSend(
    TRITONBACKEND_Response* response, const uint32_t send_flags, TRITONSERVER_Error* error);
extern TRITONSERVER_Error* TRITONBACKEND_RequestRelease(
    TRITONBACKEND_Request* request, uint32_t release_flags);

#define STUB_EXPORT __attribute__((visibility("default")))
#define STUB_TEXT 1024
#define STUB_PATH 4096

/* Copy the string value of the first `"key":"..."` member of `json` into `out`. */
static int
json_string(const char* json, size_t size, const char* key, char* out, size_t out_size)
{
  char needle[64];
  int needle_len = snprintf(needle, sizeof(needle), "\"%s\"", key);
  const char* end = json + size;
  const char* at = json;
  out[0] = '\0';
  while (needle_len > 0 && at < end) {
    const char* found = NULL;
    for (const char* p = at; p + needle_len <= end; ++p) {
      if (memcmp(p, needle, (size_t)needle_len) == 0) {
        found = p;
        break;
      }
    }
    if (found == NULL) {
      return 0;
    }
    const char* p = found + needle_len;
    while (p < end && (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')) ++p;
    if (p < end && *p == ':') {
      ++p;
      while (p < end && (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')) ++p;
      if (p < end && *p == '"') {
        size_t n = 0;
        for (++p; p < end && *p != '"' && n + 1 < out_size; ++p) {
          if (*p == '\\' && p + 1 < end) ++p;
          out[n++] = *p;
        }
        out[n] = '\0';
        return 1;
      }
    }
    at = found + 1;
  }
  return 0;
}

static int
json_has_nonempty_object(const char* json, size_t size, const char* key)
{
  char needle[64];
  int needle_len = snprintf(needle, sizeof(needle), "\"%s\":{\"", key);
  if (needle_len <= 0) return 0;
  for (const char* p = json; p + needle_len <= json + size; ++p) {
    if (memcmp(p, needle, (size_t)needle_len) == 0) return 1;
  }
  return 0;
}

/* The model file a backend Triton ships would open, or "" for other backends. */
static const char*
default_file(const char* backend, const char* platform)
{
  if (strcmp(backend, "onnxruntime") == 0) return "model.onnx";
  if (strcmp(backend, "pytorch") == 0) return "model.pt";
  if (strcmp(backend, "tensorrt") == 0) return "model.plan";
  if (strcmp(backend, "openvino") == 0) return "model.xml";
  if (strcmp(backend, "tensorflow") == 0) {
    return strcmp(platform, "tensorflow_graphdef") == 0 ? "model.graphdef" : "model.savedmodel";
  }
  return "";
}

static int
exists(const char* path, int* is_dir)
{
  struct stat info;
  if (stat(path, &info) != 0) return 0;
  *is_dir = S_ISDIR(info.st_mode);
  return 1;
}

static TRITONSERVER_Error*
check_model_file(TRITONBACKEND_ModelInstance* instance)
{
  TRITONBACKEND_Model* model = NULL;
  const char* instance_name = "";
  const char* model_name = "";
  const char* location = NULL;
  int artifact_type = -1;
  uint64_t version = 0;
  TRITONSERVER_Message* config = NULL;
  const char* json = NULL;
  size_t json_size = 0;
  char backend[STUB_TEXT], platform[STUB_TEXT], filename[STUB_TEXT];
  char path[STUB_PATH], inner[STUB_PATH + 16], message[STUB_PATH + 2 * STUB_TEXT];
  TRITONSERVER_Error* err = NULL;
  int is_dir = 0;
  int skip = 0;

  if ((err = TRITONBACKEND_ModelInstanceModel(instance, &model)) != NULL ||
      (err = TRITONBACKEND_ModelInstanceName(instance, &instance_name)) != NULL ||
      (err = TRITONBACKEND_ModelName(model, &model_name)) != NULL ||
      (err = TRITONBACKEND_ModelVersion(model, &version)) != NULL ||
      (err = TRITONBACKEND_ModelRepository(model, &artifact_type, &location)) != NULL ||
      (err = TRITONBACKEND_ModelConfig(model, 1, &config)) != NULL) {
    return err;
  }
  if ((err = TRITONSERVER_MessageSerializeToJson(config, &json, &json_size)) != NULL) {
    TRITONSERVER_MessageDelete(config);
    return err;
  }
  json_string(json, json_size, "backend", backend, sizeof(backend));
  json_string(json, json_size, "platform", platform, sizeof(platform));
  json_string(json, json_size, "default_model_filename", filename, sizeof(filename));
  /* A TensorRT plan per compute capability: which one is used depends on the GPU. */
  skip = json_has_nonempty_object(json, json_size, "cc_model_filenames");
  TRITONSERVER_MessageDelete(config);

  const char* wanted = filename[0] ? filename : default_file(backend, platform);
  if (skip || default_file(backend, platform)[0] == '\0' || wanted[0] == '\0' ||
      artifact_type != STUB_ARTIFACT_FILESYSTEM || location == NULL) {
    return NULL;
  }
  snprintf(path, sizeof(path), "%s/%llu/%s", location, (unsigned long long)version, wanted);
  const char* shown = path;
  int found = exists(path, &is_dir);
  if (found && is_dir && strcmp(backend, "onnxruntime") == 0) {
    /* An ONNX model folder holds model.onnx (and its external data). */
    snprintf(inner, sizeof(inner), "%s/model.onnx", path);
    found = exists(inner, &is_dir);
    shown = inner;
  }
  if (found) {
    return NULL;
  }
  if (strcmp(backend, "openvino") == 0) {
    snprintf(message, sizeof(message), "unable to find '%s' for model '%s'", shown, model_name);
  } else {
    snprintf(
        message, sizeof(message), "unable to find '%s' for model instance '%s'", shown,
        instance_name);
  }
  return TRITONSERVER_ErrorNew(STUB_ERROR_UNAVAILABLE, message);
}

STUB_EXPORT TRITONSERVER_Error*
TRITONBACKEND_ModelInstanceInitialize(TRITONBACKEND_ModelInstance* instance)
{
  return check_model_file(instance);
}

/* Answer every request (warmup requests included) with an empty successful response. */
STUB_EXPORT TRITONSERVER_Error*
TRITONBACKEND_ModelInstanceExecute(
    TRITONBACKEND_ModelInstance* instance, TRITONBACKEND_Request** requests,
    const uint32_t request_count)
{
  (void)instance;
  for (uint32_t i = 0; i < request_count; ++i) {
    TRITONBACKEND_Response* response = NULL;
    TRITONSERVER_Error* err = TRITONBACKEND_ResponseNew(&response, requests[i]);
    if (err == NULL) {
      err = TRITONBACKEND_ResponseSend(response, STUB_RESPONSE_COMPLETE_FINAL, NULL);
    }
    if (err != NULL) {
      TRITONSERVER_ErrorDelete(err);
    }
    err = TRITONBACKEND_RequestRelease(requests[i], STUB_REQUEST_RELEASE_ALL);
    if (err != NULL) {
      TRITONSERVER_ErrorDelete(err);
    }
  }
  return NULL;
}
