import os, requests
key = os.environ['API_TOKEN']
print(requests.get('https://api.example.dev/v1/items', headers={'Authorization': key}).json())
